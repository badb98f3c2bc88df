import BadgeDaemon
import BadgePersistence
import Testing

@testable import BadgeCore

/// A state saved after channels were forgotten in the middle of the store's table (the last
/// ones moved into their slots) loads with every name's count and days where the names are
/// kept now, and the slots the loaded store moves keep their windows and days too.
@Suite struct SlotRecoveryTests {
  static func name(_ text: String) -> ChannelName { ChannelName(text)! }

  /// Each name's count and days, by name.
  static func byName(_ store: Store) -> [String] {
    ["a", "b", "c", "d", "e", "f"].map { text in
      let days = store.history.days(of: name(text)).map {
        "\($0.day):\($0.figures.arrivals)/\($0.figures.clears)/\($0.figures.peak)/\($0.endCount)"
      }
      return "\(text) count=\(store.channel(named: name(text)).count) days=\(days)"
    }
  }

  @Test func aStateWhoseSlotsMovedLoadsEveryNameAndMovesOnAsItWas() throws {
    let store = Store()
    for (i, channel) in ["a", "b", "c", "d", "e", "f"].enumerated() {
      store.today = 100 + i
      try store.apply(.write(.incr(i + 1)), to: Self.name(channel), now: 0)
    }
    store.today = 110
    try store.apply(.write(.set(0)), to: Self.name("b"), now: 0)  // f to b's slot
    try store.apply(.write(.set(0)), to: Self.name("d"), now: 0)  // e to d's slot
    let snapshot = Snapshot(of: store).encoded()
    store.today = 111
    // After the snapshot: b made anew, a forgotten (b to its slot), e increased.
    let journal = try TotalFloorRecoveryTests.journal(
      [(.write(.incr(1)), "b"), (.write(.set(0)), "a"), (.write(.incr(2)), "e")], on: store)
    #expect(store.channels.map(\.name.description) == ["b", "f", "c", "e"])

    let loaded = try TotalFloorRecoveryTests.load(snapshot: snapshot, journal: TotalFloorRecoveryTests.header + journal)
    #expect(Self.byName(loaded) == Self.byName(store))
    #expect(
      Self.byName(loaded) == [
        "a count=0 days=[\"100:1/0/1/1\", \"111:0/1/1/0\"]",
        "b count=1 days=[\"101:2/0/2/2\", \"110:0/1/2/0\", \"111:1/0/1/1\"]",
        "c count=3 days=[\"102:3/0/3/3\"]",
        "d count=0 days=[\"103:4/0/4/4\", \"110:0/1/4/0\"]",
        "e count=7 days=[\"104:5/0/5/5\", \"111:2/0/7/7\"]",
        "f count=6 days=[\"105:6/0/6/6\"]",
      ])
    #expect(loaded.queuedPulseCount == 0, "a loaded channel does not pulse")

    // The loaded store forgets f in the middle: e, the last, moves into its slot.
    loaded.today = 112
    #expect(loaded.channels.map(\.name.description) == ["b", "f", "c", "e"])
    try loaded.apply(.write(.set(0)), to: Self.name("f"), now: 1_000_000)
    #expect(loaded.channels.map(\.name.description) == ["b", "e", "c"])
    try loaded.apply(.write(.incr(1)), to: Self.name("e"), now: 2_000_000)  // window to 5 s
    try loaded.apply(.write(.incr(1)), to: Self.name("c"), now: 3_000_000)  // window to 6 s
    #expect(loaded.queuedPulseDeadline(of: Self.name("e")) == 5_000_000)
    #expect(loaded.queuedPulseDeadline(of: Self.name("c")) == 6_000_000)
    #expect(
      loaded.history.days(of: Self.name("e")).last
        == HistoryDay(day: 112, figures: DayFigures(arrivals: 1, peak: 8), endCount: 8))
    #expect(
      loaded.history.days(of: Self.name("f")).last
        == HistoryDay(day: 112, figures: DayFigures(clears: 1, peak: 6), endCount: 0))
    var ended: [String] = []
    loaded.expirePulses(now: 5_000_000) { ended.append("\($0.name)@\($0.count)") }
    #expect(ended == ["e@8"])
  }
}
