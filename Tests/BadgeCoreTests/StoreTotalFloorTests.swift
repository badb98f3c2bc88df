import BadgeConfig
import Testing

@testable import BadgeCore

/// The store's total floor: a channel made anew starts its running total above every total of
/// a channel forgotten, so that a clear up to a total shown before the forget (late from
/// another machine, or a script) clears none of what arrived after it.
@Suite struct StoreTotalFloorTests {
  static func configured(_ names: String...) -> DaemonConfig {
    var config = DaemonConfig()
    config.sections = names.map { ChannelSection(pattern: ChannelPattern($0)!, override: SettingsOverride(), line: 1) }
    return config
  }

  @Test func aStaleClearUpToAnOlderTotalClearsNothingOfANewChannel() {
    let store = Store()
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.clear(upTo: nil)), "mail", on: store)  // forgotten, at total 3
    #expect(store.totalFloor == 3)
    let new = apply(.write(.incr(1)), "mail", on: store).channel
    #expect(new.count == 1 && new.total == 4, "the new channel's totals run on above 3")
    let stale = apply(.write(.clear(upTo: 3)), "mail", on: store)
    #expect(!stale.changed)
    #expect(store.channel(named: name("mail")).count == 1)
  }

  @Test func aStaleClearKeepsEveryItemThatCameAfterTheForget() {
    let store = Store()
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.clear(upTo: nil)), "mail", on: store)
    #expect(apply(.write(.incr(5)), "mail", on: store).channel.total == 8, "the new items are 4 … 8")
    #expect(!apply(.write(.clear(upTo: 3)), "mail", on: store).changed)
    #expect(store.channel(named: name("mail")).count == 5)
    // A clear up to a total of the new channel clears what it says: items 4 … 6 of the five.
    let cleared = apply(.write(.clear(upTo: 6)), "mail", on: store).channel
    #expect(cleared.count == 2 && cleared.total == 8)
  }

  @Test func theFloorIsTheLargestTotalForgottenAndAChannelNeverWrittenReadsAtIt() {
    let store = Store()
    for (channel, n) in [("a", 3), ("b", 10), ("c", 2)] { apply(.write(.incr(n)), channel, on: store) }
    for channel in ["b", "a", "c"] { apply(.write(.clear(upTo: nil)), channel, on: store) }
    #expect(store.totalFloor == 10, "the largest, not the last")
    #expect(store.channel(named: name("never")).total == 10)
    #expect(store.channel(named: name("never")).count == 0)
    #expect(store.channels.isEmpty, "reading a channel makes nothing")
  }

  @Test func aChannelKeptAtZeroKeepsItsTotalAndLeavesTheFloor() {
    let store = Store()
    apply(.configure(set: SettingsOverride(step: 2), reset: []), "ci", on: store)
    apply(.write(.incr(7)), "ci", on: store)
    #expect(apply(.write(.clear(upTo: nil)), "ci", on: store).channel.total == 7)
    #expect(store.totalFloor == 0, "a channel with a setting is not forgotten")
    // Its setting reset at 0: now it is forgotten, and its total is the floor.
    apply(.configure(set: SettingsOverride(), reset: [.step]), "ci", on: store)
    #expect(store.channels.isEmpty)
    #expect(store.totalFloor == 7)
  }

  @Test func aForgottenMirrorLeavesTheFloorAsItWasAndAMirrorTakesItsOwnersTotal() {
    let store = Store()
    store.setForwardIDs(host: "laptop", epoch: 1)
    apply(.write(.incr(50)), "news", on: store)
    apply(.write(.clear(upTo: nil)), "news", on: store)
    #expect(store.totalFloor == 50)
    let update = MirrorUpdate(owner: "server", count: 3, unseen: 3, total: 3, muted: false, dot: false, ownerSeq: 9)
    #expect(apply(.mirror(update), "mail", on: store).channel.total == 3, "the owner's total, not the floor")
    var higher = update
    higher.total = 80
    apply(.mirror(higher), "mail", on: store)
    let forgotten = apply(.forgetMirror, "mail", on: store)
    #expect(forgotten.channel.count == 0 && forgotten.channel.total == 50, "it reads as made anew")
    #expect(store.channels.isEmpty)
    #expect(store.totalFloor == 50, "a total read from another machine never raises the floor")
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.total == 51)
  }

  @Test func aForgottenMirrorLeavesTheFloorAsItWasAfterAnUndoToo() {
    let store = Store()
    store.keepsUndo = true
    let update = MirrorUpdate(owner: "server", count: 1, unseen: 1, total: 1 << 53, muted: false, dot: false)
    apply(.mirror(update), "mail", on: store)
    store.forgetUndo()
    apply(.forgetMirror, "mail", on: store)
    store.undoChanges()
    #expect(store.channel(named: name("mail")).total == 1 << 53, "the mirror is back as it was")
    #expect(store.pooled[.mirrors] == 1 && store.pooled[.clients] == 0)
    apply(.forgetMirror, "mail", on: store)
    #expect(store.totalFloor == 0 && store.pooled[.mirrors] == 0 && store.pooled[.clients] == 0)
  }

  @Test func aReloadThatForgetsAChannelRaisesTheFloor() {
    let store = Store(config: Self.configured("ci").channels)
    apply(.write(.incr(6)), "ci", on: store)
    apply(.write(.clear(upTo: nil)), "ci", on: store)
    #expect(store.totalFloor == 0)
    store.reconfigure(DaemonConfig().channels) { _ in }
    #expect(store.channels.isEmpty)
    #expect(store.totalFloor == 6)
    // A section for a channel that is new starts it at the floor.
    store.reconfigure(Self.configured("build").channels) { _ in }
    #expect(store.channel(named: name("build")).total == 6)
  }

  @Test func undoingAChangeThatForgotAChannelPutsTheFloorBack() {
    let store = Store()
    store.keepsUndo = true
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.incr(1)), "chat", on: store)
    store.forgetUndo()
    apply(.write(.clear(upTo: nil)), "mail", on: store)  // floor 3
    apply(.write(.incr(2)), "mail", on: store)  // a new mail, total 5
    apply(.write(.clear(upTo: nil)), "chat", on: store)  // floor stays 3
    store.undoChanges()
    #expect(store.totalFloor == 0)
    let mail = store.channel(named: name("mail"))
    #expect(mail.count == 3 && mail.total == 3)
    #expect(store.channel(named: name("chat")).total == 1)
    #expect(store.channel(named: name("new")).total == 0)
    // Saved changes stay: only those since the last save go back.
    apply(.write(.clear(upTo: nil)), "mail", on: store)
    store.forgetUndo()
    apply(.write(.incr(20)), "news", on: store)
    apply(.write(.clear(upTo: nil)), "news", on: store)
    store.undoChanges()
    #expect(store.totalFloor == 3)
  }

  @Test func undoKeepsTheFloorAReloadInTheSameTurnRaised() {
    let store = Store(config: Self.configured("ci").channels)
    store.keepsUndo = true
    apply(.write(.incr(9)), "ci", on: store)
    apply(.write(.clear(upTo: nil)), "ci", on: store)
    apply(.write(.incr(4)), "mail", on: store)
    store.forgetUndo()
    apply(.write(.clear(upTo: nil)), "mail", on: store)  // floor 4, to be undone
    store.reconfigure(DaemonConfig().channels) { _ in }  // forgets ci at 9: not undone
    #expect(store.totalFloor == 9)
    store.undoChanges()
    #expect(store.totalFloor == 9)
    #expect(store.channel(named: name("mail")).count == 4)
  }

  @Test func restoringTheFloorLiftsOnlyChannelsNeverWritten() {
    let store = Store(config: Self.configured("ci", "build").channels)
    store.restoreTotalFloor(atLeast: 12)
    store.restore(name: name("build"), count: 0, total: 0, override: SettingsOverride(), seq: 3)
    #expect(store.totalFloor == 12)
    #expect(store.channel(named: name("ci")).total == 12, "made from the config before loading")
    #expect(store.channel(named: name("build")).total == 0, "the snapshot says 0")
    store.restoreTotalFloor(atLeast: 5)
    #expect(store.totalFloor == 12, "it never falls")
  }

  @Test func recoveryPuttingBackAForgottenChannelsLastRecordRaisesTheFloor() {
    let store = Store()
    store.restore(name: name("mail"), count: 2, total: 7, override: SettingsOverride(), seq: 1)
    store.restore(name: name("mail"), count: 0, total: 7, override: SettingsOverride(), seq: 2)
    #expect(store.channels.isEmpty)
    #expect(store.totalFloor == 7)
    // A record of a channel that is not there (its section was taken away since).
    store.restore(name: name("ci"), count: 0, total: 11, override: SettingsOverride(), seq: 3)
    #expect(store.channels.isEmpty)
    #expect(store.totalFloor == 11)
  }
}
