import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// The statistics' shared pieces: numbers for people, eighth-block bars, column charts, and the
/// count-up that drives them, at chosen instants.
@Suite struct StatsRenderTests {
  @Test(arguments: [
    (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (12345, "12,345"), (-12345, "-12,345"),
    (1_234_567, "1,234,567"), (Int.max, "9,223,372,036,854,775,807"),
  ])
  func groupedNumbers(value: Int, text: String) {
    #expect(NumberText.grouped(value) == text)
  }

  @Test(arguments: [
    (0, "0"), (999, "999"), (1000, "1.0k"), (1234, "1.2k"), (1999, "1.9k"), (9999, "9.9k"), (12345, "12k"),
    (123_456, "123k"), (999_999, "999k"), (1_234_567, "1.2M"), (12_345_678, "12M"), (2_147_483_647, "2.1G"),
    (-1500, "-1.5k"), (Int.max, "9.2E"),
  ])
  func compactNumbers(value: Int, text: String) {
    #expect(NumberText.compact(value) == text)
  }

  @Test func numbersGoCompactOnlyWhereSpaceIsShortAndPadToAFixedWidth() {
    #expect(NumberText.fitting(12345, width: 6) == "12,345")
    #expect(NumberText.fitting(12345, width: 5) == "12k")
    #expect(NumberText.padded("28", width: 5) == "   28")
    #expect(NumberText.padded("12,345", width: 3) == "12,345")
  }

  static let bars: [(Double, Int, String)] = [
    (0.0, 4, "    "), (1.0, 4, "████"), (0.5, 4, "██  "), (1.0 / 32, 4, "▏   "), (2.0 / 32, 4, "▎   "),
    (3.0 / 32, 4, "▍   "), (4.0 / 32, 4, "▌   "), (5.0 / 32, 4, "▋   "), (6.0 / 32, 4, "▊   "), (7.0 / 32, 4, "▉   "),
    (9.0 / 32, 4, "█▏  "), (31.0 / 32, 4, "███▉"), (1.5, 4, "████"), (-1.0, 4, "    "), (Double.nan, 4, "    "),
    (0.3, 0, ""), (0.001, 4, "▏   "),
  ]

  @Test(arguments: bars)
  func barsHaveEighthBlockPrecisionAndAFixedWidth(fraction: Double, width: Int, bar: String) {
    #expect(BlockGlyphs.bar(fraction, width: width) == bar)
  }

  @Test func columnChartsScaleToTheMaximumInEighths() {
    #expect(BlockGlyphs.columns([0, 1, 2, 3, 4, 5, 6, 7, 8], maximum: 8) == " ▁▂▃▄▅▆▇█")
    #expect(BlockGlyphs.columns([0.01, 100], maximum: 100) == "▁█", "anything above nothing shows")
    #expect(BlockGlyphs.columns([0, 0], maximum: 0) == "  ")
    #expect(BlockGlyphs.columns([8, 0, 4], maximum: 8, cellWidth: 4) == "███     ▄▄▄ ", "wide columns keep a gap")
    #expect(BlockGlyphs.columns([8, 4], maximum: 8, cellWidth: 2) == "██▄▄")
  }

  @Test func longSeriesAreSummedIntoColumnsThatFit() {
    #expect(BlockGlyphs.buckets([1, 2, 3], width: 5) == [1, 2, 3])
    #expect(BlockGlyphs.buckets([1, 2, 3, 4, 5, 6, 7], width: 3) == [6, 15, 7])
    #expect(BlockGlyphs.buckets(Array(repeating: 1, count: 365), width: 60).count == 53)
    #expect(BlockGlyphs.buckets(Array(repeating: 1, count: 365), width: 60).reduce(0, +) == 365)
  }

  @Test func theCountUpRunsEaseOutOverThreeQuartersOfASecond() {
    var countUp = CountUp()
    #expect(countUp.count(42, at: 3) == 42, "at rest before any run: the end values")
    countUp.restart(at: 10)
    #expect(countUp.count(42, at: 10) == 0)
    expectClose(countUp.progress(at: 10.375), 0.684643)
    #expect(countUp.count(42, at: 10.375) == 28)  // 28.76, cut down
    #expect(countUp.count(12345, at: 10.375) == 8451)
    expectClose(countUp.fraction(0.5, at: 10.1875), 0.5 * 0.378138)
    #expect(countUp.count(42, at: 10.75) == 42)
    #expect(countUp.count(42, at: 20) == 42)
    #expect(countUp.isMoving(at: 10.5))
    #expect(!countUp.isMoving(at: 10.75))
    #expect(countUp.nextFrame(after: 10.5, interval: 1.0 / 60) == 10.5 + 1.0 / 60)
    #expect(countUp.nextFrame(after: 10.74, interval: 0.1) == 10.75, "the last frame lands on the end")
    #expect(countUp.nextFrame(after: 10.75, interval: 0.1) == nil)
  }

  @Test func finishingOrNoMotionShowsTheEndValues() {
    var countUp = CountUp()
    countUp.restart(at: 0)
    countUp.finish(at: 0.2)
    #expect(countUp.count(42, at: 0.2) == 42)
    #expect(countUp.nextFrame(after: 0.2, interval: 0.1) == nil)
    var still = CountUp(motion: false)
    still.restart(at: 0)
    #expect(still.count(42, at: 0) == 42)
    #expect(still.nextFrame(after: 0, interval: 0.1) == nil)
  }

  static let monday = CivilDate(year: 2026, month: 11, day: 30).dayNumber
  static let week = [
    ChannelStats(
      channel: "mail", period: .week, firstDay: monday - 6,
      days: [
        .zero, DayFigures(arrivals: 4, clears: 1, peak: 4), .zero, .zero, .zero,
        DayFigures(arrivals: 8, clears: 2, peak: 7), DayFigures(peak: 2),
      ]),
    ChannelStats(
      channel: "ci", period: .week, firstDay: monday - 6,
      days: [
        .zero, .zero, .zero, .zero, .zero, .zero, DayFigures(arrivals: 3, clears: 1, peak: 3),
      ]),
  ]

  @Test func thePanelAtTheEndOfItsCountUp() {
    let lines = StatsPanel(stats: Self.week, width: 48).lines(at: 5, countUp: CountUp())
    #expect(
      lines == [
        "week  2026-11-24 to 2026-11-30",
        "                            arrivals clears peak",
        "mail  █████████████████████       12      3    7",
        "         ▄▄          ██    ",  // 3 cells a day: two drawn, one gap
        "ci    █████▎                       3      1    3",
        "                        ██ ",
      ])
  }

  @Test func thePanelCountsUpInPlace() {
    var countUp = CountUp()
    countUp.restart(at: 0)
    let start = StatsPanel(stats: Self.week, width: 48).lines(at: 0, countUp: countUp)
    #expect(start[2] == "mail                               0      0    0")
    #expect(start[3] == String(repeating: " ", count: 27))
    let middle = StatsPanel(stats: Self.week, width: 48).lines(at: 0.375, countUp: countUp)
    // 0.684643 of the way: 12 → 8, 3 → 2, 7 → 4; the bar 21 × 0.684643 = 14.38 cells.
    #expect(middle[2] == "mail  ██████████████▍              8      2    4")
    #expect(middle.map(\.count) == StatsPanel(stats: Self.week, width: 48).lines(at: 5, countUp: countUp).map(\.count))
  }

  @Test func aNarrowPanelGoesCompactAndAPeriodOfADayHasNoChart() {
    let day = [
      ChannelStats(
        channel: "mail", period: .day, firstDay: Self.monday,
        days: [DayFigures(arrivals: 123_456, clears: 1, peak: 99_999)])
    ]
    #expect(
      StatsPanel(stats: day, width: 40).lines(at: 0, countUp: CountUp()) == [
        "day  2026-11-30",
        "                  arrivals clears   peak",
        "mail  ███████████  123,456      1 99,999",
      ])
    #expect(
      StatsPanel(stats: day, width: 30).lines(at: 0, countUp: CountUp()) == [
        "day  2026-11-30",
        "          arrivals clears peak",
        "mail  ███     123k      1  99k",
      ])
    #expect(StatsPanel(stats: [], width: 40).lines(at: 0, countUp: CountUp()) == ["No history."])
  }

  @Test func jsonAndPlainCarryEveryFigure() {
    #expect(
      StatsText.json(Self.week[1]) == """
        {"channel":"ci","period":"week","from":"2026-11-24","to":"2026-11-30","arrivals":3,"clears":1,"peak":3,\
        "days":[{"date":"2026-11-24","arrivals":0,"clears":0,"peak":0},{"date":"2026-11-25","arrivals":0,"clears":0,"peak":0},\
        {"date":"2026-11-26","arrivals":0,"clears":0,"peak":0},{"date":"2026-11-27","arrivals":0,"clears":0,"peak":0},\
        {"date":"2026-11-28","arrivals":0,"clears":0,"peak":0},{"date":"2026-11-29","arrivals":0,"clears":0,"peak":0},\
        {"date":"2026-11-30","arrivals":3,"clears":1,"peak":3}]}
        """)
    #expect(
      StatsText.plain(Self.week[0])
        == "mail: 12 arrivals, 3 clears, peak 7 (2026-11-24 to 2026-11-30; arrivals per day 0 4 0 0 0 8 0)")
    #expect(
      StatsText.plain(ChannelStats(channel: "a", period: .day, firstDay: Self.monday, days: [.zero]))
        == "a: 0 arrivals, 0 clears, peak 0 (2026-11-30)")
  }
}
