import BadgeConfig
import Testing

@testable import BadgeCore

/// Running totals and clears up to a total: the arithmetic every client's clear relies on.
@Suite struct StoreTotalTests {
  @Test func theTotalIsTheSumOfIncreasesAndNeverFalls() {
    let store = Store(config: DaemonConfig().channels)
    _ = apply(.configure(set: SettingsOverride(step: 2), reset: []), "ci", on: store)  // kept at 0
    #expect(apply(.write(.incr(5)), "ci", on: store).channel.total == 5)
    #expect(apply(.write(.decr(2)), "ci", on: store).channel.total == 5)
    let set = apply(.write(.set(10)), "ci", on: store).channel
    #expect(set.total == 12, "SET from 3 to 10 is an increase of 7")
    #expect(apply(.write(.set(4)), "ci", on: store).channel.total == 12)
    #expect(apply(.write(.incr(1)), "ci", on: store).channel.total == 13)
    let cleared = apply(.write(.clear(upTo: nil)), "ci", on: store).channel
    #expect(cleared.count == 0 && cleared.total == 13)
    #expect(store.channel(named: name("ci")).total == 13, "a channel with a setting keeps its total at 0")
  }

  /// `CLEAR upto=`: the count keeps only what came after the total a client showed.
  @Test(arguments: [
    (0, 7), (4, 3), (5, 2), (6, 1), (7, 0), (8, 0), (Int.max, 0),
  ])
  func aClearUpToATotalKeepsWhatCameAfter(upTo: Int, left: Int) {
    let store = Store()
    apply(.write(.incr(5)), "mail", on: store)
    apply(.write(.incr(2)), "mail", on: store)  // count 7, total 7
    let after = apply(.write(.clear(upTo: upTo)), "mail", on: store)
    #expect(after.channel.count == left)
    #expect(after.channel.unseen == left)
    #expect(after.channel.total == 7)
  }

  @Test func theSameClearTwiceChangesNothingTheSecondTime() {
    let store = Store()
    apply(.write(.incr(5)), "mail", on: store)
    apply(.write(.incr(2)), "mail", on: store)
    #expect(apply(.write(.clear(upTo: 5)), "mail", on: store).changed)
    let again = apply(.write(.clear(upTo: 5)), "mail", on: store)
    #expect(!again.changed && again.channel.count == 2)
    // Cleared down below what came after: a later total of its own is left alone too.
    apply(.write(.decr(1)), "mail", on: store)
    #expect(!apply(.write(.clear(upTo: 5)), "mail", on: store).changed)
    #expect(store.channel(named: name("mail")).count == 1)
  }

  @Test func seenUpToATotalKeepsWhatCameAfterNew() {
    let store = Store()
    apply(.write(.incr(3)), "chat", on: store)
    let seen = apply(.write(.seen(upTo: 2)), "chat", on: store).channel
    #expect(seen.count == 3 && seen.unseen == 1 && seen.total == 3)
    #expect(!apply(.write(.seen(upTo: 2)), "chat", on: store).changed)
    apply(.write(.incr(1)), "chat", on: store)
    #expect(store.channel(named: name("chat")).unseen == 2)
    #expect(apply(.write(.seen(upTo: 4)), "chat", on: store).channel.unseen == 0)
  }

  @Test func restoredTotalsAreNeverBelowTheCount() {
    let store = Store()
    store.restore(name: name("old"), count: 4, override: SettingsOverride(), seq: 1)
    store.restore(name: name("new"), count: 4, total: 9, override: SettingsOverride(), seq: 2)
    store.restore(name: name("bad"), count: 4, total: 2, override: SettingsOverride(), seq: 3)
    #expect(store.channel(named: name("old")).total == 4, "a record from before totals reads as its count")
    #expect(store.channel(named: name("new")).total == 9)
    #expect(store.channel(named: name("bad")).total == 4)
  }

  @Test func undoingAChangeTakesItsTotalBack() {
    let store = Store()
    store.keepsUndo = true
    apply(.write(.incr(3)), "mail", on: store)
    store.forgetUndo()
    apply(.write(.incr(2)), "mail", on: store)
    store.undoChanges()
    #expect(store.channel(named: name("mail")).total == 3)
  }
}
