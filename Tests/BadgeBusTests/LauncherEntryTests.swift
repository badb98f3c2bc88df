import BadgeBus
import BadgeCore
import Testing

/// Merging LauncherEntry properties as docks do.
@Suite struct LauncherEntryTests {
  static func props(_ items: [(String, BusValue)]) -> [BusProperty] {
    items.map { BusProperty(key: $0.0, value: $0.1) }
  }

  @Test func aVisibleCountIsSet() {
    var state = LauncherEntryState()
    let effect = state.merge(Self.props([("count", .signed(5)), ("count-visible", .boolean(true))]))
    #expect(effect == LauncherEntryEffect(count: 5))
    #expect(state.visibleCount == 5)
  }

  @Test func countVisibleDefaultsToFalse() {
    var state = LauncherEntryState()
    #expect(state.merge(Self.props([("count", .signed(5))])) == LauncherEntryEffect(count: 0))
    #expect(state.count == 5, "remembered while hidden")
  }

  @Test func countVisibleHidesAndRestoresTheRememberedCount() {
    var state = LauncherEntryState()
    _ = state.merge(Self.props([("count", .signed(7)), ("count-visible", .boolean(true))]))
    #expect(state.merge(Self.props([("count-visible", .boolean(false))])).count == 0)
    #expect(state.merge(Self.props([("count-visible", .boolean(true))])).count == 7)
  }

  @Test func partialUpdatesMerge() {
    var state = LauncherEntryState()
    _ = state.merge(Self.props([("count-visible", .boolean(true))]))
    #expect(state.merge(Self.props([("count", .signed(3))])).count == 3)
    // Progress alone says nothing about the count.
    #expect(
      state.merge(Self.props([("progress", .double(0.5)), ("progress-visible", .boolean(true))]))
        == LauncherEntryEffect())
    #expect(state.visibleCount == 3)
  }

  @Test(arguments: [
    (BusValue.signed(-4), 0), (.signed(Int64.max), Limits.maxCount), (.signed(12), 12),
    (.unsigned(9), 9), (.unsigned(UInt64.max), Limits.maxCount), (.unsigned(2_147_483_647), 2_147_483_647),
  ])
  func integersOfEveryTypeAreClamped(_ value: BusValue, _ expected: Int) {
    var state = LauncherEntryState()
    #expect(state.merge(Self.props([("count-visible", .boolean(true)), ("count", value)])).count == expected)
  }

  @Test func valuesOfOtherTypesAreSkipped() {
    var state = LauncherEntryState()
    let effect = state.merge(
      Self.props([
        ("count", .string("5")), ("count-visible", .signed(1)), ("urgent", .string("yes")),
      ]))
    #expect(
      effect == LauncherEntryEffect(skipped: ["count (string)", "count-visible (signed integer)", "urgent (string)"]))
    #expect(state == LauncherEntryState())
  }

  @Test func urgentAsksForAPulse() {
    var state = LauncherEntryState()
    #expect(state.merge(Self.props([("urgent", .boolean(true))])) == LauncherEntryEffect(urgent: true))
    #expect(state.merge(Self.props([("urgent", .boolean(false))])) == LauncherEntryEffect())
  }

  @Test func exportsAnnounceCountAsInt64AndVisibilityAboveZero() {
    #expect(
      LauncherEntryExport.State(count: 4, urgent: true).properties
        == Self.props([
          ("count", .signed(4)), ("count-visible", .boolean(true)), ("urgent", .boolean(true)),
        ]))
    #expect(
      LauncherEntryExport.State(count: 0, urgent: false).properties
        == Self.props([
          ("count", .signed(0)), ("count-visible", .boolean(false)), ("urgent", .boolean(false)),
        ]))
  }

  @Test func exportPathsAreStableDigitsUnderLibunitysPrefix() {
    let path = LauncherEntryExport.objectPath(forDesktopID: "org.example.Mail")
    #expect(path.hasPrefix("/com/canonical/unity/launcherentry/"))
    let digits = path.dropFirst("/com/canonical/unity/launcherentry/".count)
    #expect(!digits.isEmpty && digits.allSatisfy { $0.isNumber })
    #expect(path == LauncherEntryExport.objectPath(forDesktopID: "org.example.Mail"))
    #expect(path != LauncherEntryExport.objectPath(forDesktopID: "org.example.Chat"))
    #expect(LauncherEntryExport.appURI(forDesktopID: "org.example.Mail") == "application://org.example.Mail.desktop")
  }
}
