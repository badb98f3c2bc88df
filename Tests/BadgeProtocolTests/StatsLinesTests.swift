import BadgeCore
import BadgeProtocol
import Testing

/// `STATS` replies: what the daemon writes is what clients read back.
@Suite struct StatsLinesTests {
  static let monday = CivilDate(year: 2026, month: 11, day: 30).dayNumber

  static let week = ChannelStats(
    channel: "mail", period: .week, firstDay: monday - 6,
    days: [
      .zero, DayFigures(arrivals: 5, clears: 1, peak: 5), .zero, .zero, .zero,
      DayFigures(arrivals: 7, clears: 2, peak: 7), DayFigures(peak: 2),
    ])

  static func encoded(_ stats: [ChannelStats]) -> [String] {
    var out: [UInt8] = []
    for s in stats { StatsLines.append(s, to: &out) }
    return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// The lines taken in one by one, as a client does while they arrive.
  static func collected(_ lines: [String], maxChannels: Int = 100) -> StatsLines.Collector {
    var collector = StatsLines.Collector(maxChannels: maxChannels)
    for line in lines { collector.add(line) }
    return collector
  }

  @Test func theLinesAreExactlyTheDocumentedFormat() {
    let lines = Self.encoded([Self.week])
    #expect(lines.count == 8)
    #expect(lines[0] == "STATS mail period=week from=2026-11-24 to=2026-11-30 arrivals=12 clears=3 peak=7")
    #expect(lines[1] == "DAY mail 2026-11-24 arrivals=0 clears=0 peak=0")
    #expect(lines[2] == "DAY mail 2026-11-25 arrivals=5 clears=1 peak=5")
    #expect(lines[7] == "DAY mail 2026-11-30 arrivals=0 clears=0 peak=2")
  }

  @Test func aReplyParsesBackToWhatWasSent() {
    let other = ChannelStats(
      channel: "ci", period: .week, firstDay: Self.monday - 6, days: Array(repeating: .zero, count: 7))
    #expect(Self.collected(Self.encoded([other, Self.week])).stats == [other, Self.week])
  }

  @Test func linesParseByFieldNameAndSkipUnknownFields() {
    #expect(
      StatsLines.Line("DAY mail 2026-11-25 peak=5 clears=1 arrivals=5 later=x")
        == .day(
          channel: "mail", date: CivilDate(year: 2026, month: 11, day: 25), DayFigures(arrivals: 5, clears: 1, peak: 5))
    )
    #expect(
      StatsLines.Line("STATS mail period=day from=2026-11-30 to=2026-11-30 arrivals=1 clears=0 peak=1")
        == .totals(
          channel: "mail", period: .day, from: CivilDate(year: 2026, month: 11, day: 30),
          to: CivilDate(year: 2026, month: 11, day: 30), DayFigures(arrivals: 1, peak: 1)))
  }

  @Test(arguments: [
    "DAY mail 2026-11-25 arrivals=5 clears=1", "DAY mail 2026-02-30 arrivals=5 clears=1 peak=5",
    "DAY mail 2026-11-25 arrivals=-5 clears=1 peak=5",
    "STATS mail period=fortnight from=2026-11-30 to=2026-11-30 arrivals=1 clears=0 peak=1",
    "STATS mail period=day to=2026-11-30 arrivals=1 clears=0 peak=1", "STATE mail count=1", "OK", "",
    // What no daemon sends: a span that is not the period's (a client would make a day for each
    // of its 3.6 million days), a name that breaks the naming rules.
    "STATS mail period=year from=0001-01-01 to=9999-12-31 arrivals=1 clears=0 peak=1",
    "STATS mail period=week from=2026-11-25 to=2026-11-30 arrivals=1 clears=0 peak=1",
    "STATS \(String(repeating: "m", count: 65)) period=day from=2026-11-30 to=2026-11-30 arrivals=1 clears=0 peak=1",
    "DAY m@il 2026-11-25 arrivals=5 clears=1 peak=5",
  ])
  func malformedLinesAreNotStatsLines(line: String) {
    #expect(StatsLines.Line(line) == nil)
  }

  @Test func aDayMissingFromTheReplyReadsAsZero() {
    let lines = Self.encoded([Self.week]).filter { !$0.contains("2026-11-25") }
    var expected = Self.week
    expected.days[1] = .zero
    #expect(Self.collected(lines).stats == [expected])
  }

  @Test func aCollectorKeepsAtMostItsChannelsAndCountsTheRest() {
    let channels = (0..<5).map {
      ChannelStats(channel: "c\($0)", period: .week, firstDay: Self.monday - 6, days: Self.week.days)
    }
    let collector = Self.collected(Self.encoded(channels), maxChannels: 2)
    #expect(collector.stats == Array(channels.prefix(2)))
    #expect(collector.leftOut == 3)
    // The days of a channel left out never land on a kept one of the same name.
    let repeated = Self.collected(Self.encoded([Self.week, Self.week.with(peak: 9)]), maxChannels: 1)
    #expect(repeated.stats == [Self.week] && repeated.leftOut == 1)
  }
}

extension ChannelStats {
  /// The same channel and period, with every day's peak `peak`.
  func with(peak: Int) -> ChannelStats {
    ChannelStats(
      channel: channel, period: period, firstDay: firstDay,
      days: days.map { DayFigures(arrivals: $0.arrivals, clears: $0.clears, peak: peak) })
  }
}
