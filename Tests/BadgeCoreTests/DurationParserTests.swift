import BadgeCore
import Testing

/// Durations as people write them (`DND on 30m`, badgectl's arguments).
@Suite struct DurationParserTests {
  @Test func durations() {
    #expect(DurationParser.milliseconds("1500ms") == 1500)
    #expect(DurationParser.milliseconds("90s") == 90_000)
    #expect(DurationParser.milliseconds("30m") == 1_800_000)
    #expect(DurationParser.milliseconds("2h") == 7_200_000)
    for bad in ["", "30", "m", "0m", "-1m", "1.5h", "30 m", "30M", "2d"] {
      #expect(DurationParser.milliseconds(bad) == nil, "\(bad)")
    }
  }
}
