import BadgeConfig
import Testing

@testable import BadgeCore

/// What the store keeps by a channel's slot in its table (the name index, the pulse queue, the
/// days of history) follows the channel when forgetting another moves it into the freed slot,
/// and when taking back refused changes forgets and makes channels again.
@Suite struct StoreSlotTests {
  static let names = ["a", "b", "c", "d", "e", "f"]

  /// Channels a…f: the i-th (from 0) increased by i + 1 at i + 1 s on day 100 + i, so its pulse
  /// window (3 s by default) ends at i + 4 s.
  static func sixChannels(_ store: Store) {
    for (i, channel) in names.enumerated() {
      store.today = 100 + i
      apply(.write(.incr(i + 1)), channel, on: store, at: seconds(i + 1))
    }
    store.today = 110
  }

  static func seconds(_ s: Int) -> UInt64 { UInt64(s) * 1_000_000 }

  /// The one day of the i-th of `sixChannels`, as it recorded it.
  static func firstDay(_ i: Int) -> HistoryDay {
    HistoryDay(day: 100 + i, figures: DayFigures(arrivals: i + 1, peak: i + 1), endCount: i + 1)
  }

  /// Each channel's count, pulse deadline in the queue and days, by name: what must not
  /// depend on slots.
  static func byName(_ store: Store, _ names: [String] = names) -> [String] {
    names.map { text in
      let channel = store.channel(named: name(text))
      return "\(text) count=\(channel.count) pulseUntil=\(channel.pulseUntil) "
        + "queued=\(store.queuedPulseDeadline(of: name(text)).map(String.init) ?? "-") "
        + "days=\(store.history.days(of: name(text)).map { "\($0.day):\($0.figures.arrivals)/\($0.figures.clears)/\($0.figures.peak)/\($0.endCount)" })"
    }
  }

  @Test func forgettingChannelsInTheMiddleMovesTheLastOnesWithTheirWindowsAndDays() {
    let store = Store()
    Self.sixChannels(store)
    apply(.write(.set(0)), "b", on: store, at: Self.seconds(7))  // b ends its window; f moves to slot 1
    apply(.write(.set(0)), "d", on: store, at: Self.seconds(7))  // e moves to slot 3
    #expect(store.channels.map(\.name.description) == ["a", "f", "c", "e"])
    #expect(
      Self.byName(store) == [
        "a count=1 pulseUntil=4000000 queued=4000000 days=[\"100:1/0/1/1\"]",
        "b count=0 pulseUntil=0 queued=- days=[\"101:2/0/2/2\", \"110:0/1/2/0\"]",
        "c count=3 pulseUntil=6000000 queued=6000000 days=[\"102:3/0/3/3\"]",
        "d count=0 pulseUntil=0 queued=- days=[\"103:4/0/4/4\", \"110:0/1/4/0\"]",
        "e count=5 pulseUntil=8000000 queued=8000000 days=[\"104:5/0/5/5\"]",
        "f count=6 pulseUntil=9000000 queued=9000000 days=[\"105:6/0/6/6\"]",
      ])
    #expect(store.queuedPulseCount == 4)
    #expect(store.history.names == Self.names.map(name))

    // The moved channels are changed where they are now, and nothing else is.
    apply(.write(.incr(1)), "f", on: store, at: Self.seconds(8))  // window to 11 s
    apply(.write(.incr(2)), "e", on: store, at: Self.seconds(8))  // window to 11 s
    #expect(
      store.history.days(of: name("f")).last
        == HistoryDay(day: 110, figures: DayFigures(arrivals: 1, peak: 7), endCount: 7))
    #expect(
      store.history.days(of: name("e")).last
        == HistoryDay(day: 110, figures: DayFigures(arrivals: 2, peak: 7), endCount: 7))
    #expect(store.history.days(of: name("a")) == [Self.firstDay(0)])
    #expect(store.history.days(of: name("c")) == [Self.firstDay(2)])

    var ended: [String] = []
    store.expirePulses(now: Self.seconds(6)) { ended.append("\($0.name)@\($0.count)") }
    #expect(ended == ["a@1", "c@3"])
    store.expirePulses(now: Self.seconds(10)) { ended.append("\($0.name)@\($0.count)") }
    #expect(ended == ["a@1", "c@3"], "the moved channels' windows were restarted to 11 s")
    store.expirePulses(now: Self.seconds(11)) { ended.append("\($0.name)@\($0.count)") }
    #expect(Set(ended.suffix(2)) == ["e@7", "f@7"])
    #expect(store.queuedPulseCount == 0)
    #expect(store.channels.allSatisfy { $0.pulseUntil == 0 })
  }

  @Test func aChannelMadeAnewTakesBackTheDaysOfItsName() {
    let store = Store()
    Self.sixChannels(store)
    apply(.write(.set(0)), "a", on: store, at: Self.seconds(7))  // f moves to slot 0
    apply(.write(.incr(2)), "a", on: store, at: Self.seconds(8))  // made anew at the end
    #expect(store.channels.map(\.name.description) == ["f", "b", "c", "d", "e", "a"])
    #expect(
      store.history.days(of: name("a")) == [
        Self.firstDay(0), HistoryDay(day: 110, figures: DayFigures(arrivals: 2, clears: 1, peak: 2), endCount: 2),
      ])
    #expect(store.queuedPulseDeadline(of: name("a")) == Self.seconds(11))
    #expect(store.queuedPulseDeadline(of: name("f")) == Self.seconds(9))
    #expect(store.history.entryCount == 7)
  }

  /// A turn that forgets channels in the middle, makes new ones and moves windows, taken back
  /// as a failed commit takes it back: every name reads as before, wherever it is kept now.
  @Test func undoingChangesThatMovedSlotsPutsEveryWindowAndDayBack() {
    let store = Store()
    store.keepsUndo = true
    Self.sixChannels(store)
    store.forgetUndo()
    let saved = Self.byName(store, Self.names + ["g"])
    let savedDays = store.history.entryCount

    apply(.write(.set(0)), "b", on: store, at: Self.seconds(5))  // f to slot 1
    apply(.write(.incr(1)), "g", on: store, at: Self.seconds(5))  // g at slot 5
    apply(.write(.incr(1)), "e", on: store, at: Self.seconds(6))  // e's window to 9 s
    apply(.write(.set(0)), "a", on: store, at: Self.seconds(5))  // g to slot 0
    apply(.write(.set(0)), "f", on: store, at: Self.seconds(5))  // e to slot 1
    #expect(store.channels.map(\.name.description) == ["g", "e", "c", "d"])
    store.undoChanges()

    #expect(Self.byName(store, Self.names + ["g"]) == saved)
    #expect(store.history.entryCount == savedDays)
    #expect(store.history.names == Self.names.map(name))
    #expect(store.queuedPulseCount == 6)
    #expect(store.nextPulseDeadline == Self.seconds(4))
    var ended: [String] = []
    store.expirePulses(now: Self.seconds(9)) { ended.append($0.name.description) }
    #expect(ended == Self.names, "in the order of their ends, a at 4 s to f at 9 s")
  }

  @Test func aReloadThatForgetsChannelsMovesTheOthersWithTheirWindows() {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: ChannelPattern("kept")!, override: SettingsOverride(), line: 1)]
    let store = Store(config: config.channels)  // kept at slot 0, listed by its section
    Self.sixChannels(store)
    #expect(store.channels.first?.name == name("kept"))
    store.reconfigure(DaemonConfig().channels) { _ in }  // kept goes: f moves to slot 0
    #expect(store.channels.map(\.name.description) == ["f", "a", "b", "c", "d", "e"])
    #expect(store.queuedPulseDeadline(of: name("f")) == Self.seconds(9))
    #expect(store.history.days(of: name("f")) == [Self.firstDay(5)])
    var ended: [String] = []
    store.expirePulses(now: Self.seconds(9)) { ended.append($0.name.description) }
    #expect(ended == Self.names)
  }

  /// The table grows by half, not double (16,384 slots for 10,000 channels).
  @Test func theTableGrowsByHalf() {
    #expect(Store.grownCapacity(0) == 16)
    #expect(Store.grownCapacity(6927) == 10_390)
    let store = Store()
    for i in 0..<10_000 { apply(.write(.incr(1)), "c\(i)", on: store) }
    #expect(store.channels.count == 10_000)
    #expect(store.channels.capacity < 15_000)
    for i in stride(from: 0, to: 10_000, by: 7) { apply(.write(.set(0)), "c\(i)", on: store) }
    for i in 0..<10_000 {
      #expect(store.channel(named: name("c\(i)")).count == (i % 7 == 0 ? 0 : 1))
    }
  }
}
