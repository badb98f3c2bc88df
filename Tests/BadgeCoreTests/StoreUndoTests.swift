import BadgeConfig
import TestSupport
import Testing

@testable import BadgeCore

/// `Store.undoChanges`: the changes the disk refused are taken back exactly.
@Suite struct StoreUndoTests {
  var clock = ManualClock()
  let store = Store()

  init() { store.keepsUndo = true }

  /// Everything a channel holds, for exact comparisons.
  static func state(_ channel: Channel) -> String {
    "\(channel.name) count=\(channel.count) override=\(channel.override) settings=\(channel.settings) "
      + "section=\(channel.hasConfigSection) pulseUntil=\(channel.pulseUntil) seq=\(channel.seq)"
  }

  func everything() -> [String] { store.channels.map(Self.state) + ["seq=\(store.seq)"] }

  @Test mutating func undoRestoresEveryTouchedChannelAndTheSequenceNumber() {
    apply(.write(.incr(3)), "mail", on: store, at: clock.now)
    apply(.write(.mute), "chat", on: store, at: clock.now)
    store.forgetUndo()
    let saved = everything()
    clock.advance(ms: 10)
    apply(.write(.incr(2)), "mail", on: store, at: clock.now)
    apply(.configure(set: SettingsOverride(maxLabel: 5), reset: []), "mail", on: store, at: clock.now)
    apply(.write(.unmute), "chat", on: store, at: clock.now)
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(store.hasUndo)
    var undone: [String] = []
    store.undoChanges { undone.append($0.description) }
    #expect(everything() == saved)
    #expect(undone == ["mail", "chat", "mail", "mail"], "newest first, once per change")
    #expect(!store.hasUndo)
  }

  @Test func aChannelFirstWrittenInTheUndoneChangesReadsAsNeverWritten() {
    apply(.write(.incr(1)), "new", on: store)
    store.undoChanges()
    let channel = store.channel(named: name("new"))
    #expect(Self.state(channel) == Self.state(Store().channel(named: name("new"))))
    #expect(store.listed.isEmpty)
    #expect(store.seq == 0)
  }

  @Test func forgottenChangesStay() {
    apply(.write(.incr(1)), "mail", on: store)
    store.forgetUndo()
    #expect(!store.hasUndo)
    store.undoChanges()
    #expect(store.channel(named: name("mail")).count == 1)
    #expect(store.seq == 1)
  }

  @Test func withoutKeepsUndoNothingIsKept() {
    let plain = Store()
    apply(.write(.incr(1)), "mail", on: plain)
    #expect(!plain.hasUndo)
    plain.undoChanges()
    #expect(plain.channel(named: name("mail")).count == 1)
  }

  @Test mutating func aRestoredPulseWindowStillEndsOnTime() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    let firstEnd = clock.now + 3_000_000
    store.forgetUndo()
    clock.advance(ms: 1000)
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)  // restarts the window
    clock.advance(ms: 2500)
    var ended: [String] = []
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    #expect(ended.isEmpty, "the first window's end was passed over: the window restarted")
    store.undoChanges()
    #expect(store.channel(named: name("mail")).pulseUntil == firstEnd)
    #expect(store.nextPulseDeadline == firstEnd)
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    #expect(ended == ["mail"])
  }

  @Test func settingsFromAReloadInBetweenStay() throws {
    apply(.write(.incr(1)), "mail", on: store)
    var config = DaemonConfig()
    config.defaults.maxLabel = 7
    store.reconfigure(config.channels) { _ in }
    store.undoChanges()
    let channel = store.channel(named: name("mail"))
    #expect(channel.count == 0)
    #expect(channel.settings.maxLabel == 7)
  }

  @Test func historyOfTheDayIsUndoneToo() {
    store.today = 100
    apply(.write(.incr(2)), "mail", on: store)
    store.forgetUndo()
    let saved = store.history.days(of: name("mail"))
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.set(0)), "mail", on: store)
    store.today = 101
    apply(.write(.incr(1)), "mail", on: store)  // a new day within the same turn
    apply(.write(.incr(1)), "other", on: store)
    store.undoChanges()
    #expect(store.history.days(of: name("mail")) == saved)
    #expect(store.history.days(of: name("other")).isEmpty)
    #expect(store.history.names == [name("mail")])
  }

  /// Do-not-disturb goes back to how it was before the first change since the last save, and
  /// each channel it shows differently again is reported.
  @Test mutating func doNotDisturbIsUndoneToItsStateBeforeTheChanges() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    store.forgetUndo()
    store.setDND(DoNotDisturb(isOn: true, until: clock.now + 60_000_000))
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    #expect(store.hasUndo)
    #expect(store.channel(named: name("mail")).silenced == .hide)
    var undone: [String] = []
    store.undoChanges { undone.append($0.description) }
    #expect(store.dnd == .off)
    #expect(store.channel(named: name("mail")).silenced == nil)
    #expect(undone == ["mail"])
    #expect(!store.hasUndo)
  }

  /// A timed do-not-disturb's end is derived from time, like a pulse window's: nothing to undo,
  /// and undoing what came before it in the same turn still goes back to the state before that.
  @Test mutating func aTimedEndOfDoNotDisturbIsNoChange() {
    store.setDND(DoNotDisturb(isOn: true, until: clock.now + 1000))
    store.forgetUndo()
    clock.advance(ms: 1)
    #expect(store.expireDND(now: clock.now))
    #expect(!store.hasUndo)
    store.undoChanges()
    #expect(store.dnd == .off)

    let timed = DoNotDisturb(isOn: true, until: clock.now + 1000)
    store.setDND(timed)
    store.forgetUndo()
    store.setDND(DoNotDisturb(isOn: true, until: clock.now + 2000))
    clock.advance(ms: 2)
    #expect(store.expireDND(now: clock.now))
    store.undoChanges()
    #expect(store.dnd == timed, "back to before the turn's change, not to the end's state")
  }
}
