import Testing

@testable import BadgeCore

/// `unseen`: the arrivals since a channel was last seen, in every request that moves a count.
@Suite struct StoreUnseenTests {
  let store = Store()

  func unseen(_ channel: String) -> Int { store.channel(named: name(channel)).unseen }

  @Test func increasesAddToIt() {
    apply(.write(.incr(3)), "mail", on: store)
    #expect(unseen("mail") == 3)
    apply(.write(.incr(2)), "mail", on: store)
    #expect(unseen("mail") == 5)
  }

  @Test func seenZeroesItAndKeepsTheCount() {
    apply(.write(.incr(4)), "mail", on: store)
    let outcome = apply(.write(.seen(upTo: nil)), "mail", on: store)
    #expect(outcome.changed && outcome.channel.count == 4 && outcome.channel.unseen == 0)
    #expect(outcome.channel.seq == 2, "SEEN is a change: it persists")
    #expect(!apply(.write(.seen(upTo: nil)), "mail", on: store).changed, "seen again: nothing to change")
  }

  @Test func seenThenIncreaseShowsExactlyTheNewArrivals() {
    apply(.write(.incr(4)), "mail", on: store)
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    apply(.write(.incr(1)), "mail", on: store)
    #expect(store.channel(named: name("mail")).count == 5)
    #expect(unseen("mail") == 1)
  }

  @Test func decreasesLowerItToAtMostTheNewCount() {
    apply(.write(.incr(5)), "mail", on: store)
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    apply(.write(.incr(2)), "mail", on: store)  // count 7, unseen 2
    apply(.write(.decr(3)), "mail", on: store)  // count 4: unseen stays 2
    #expect(unseen("mail") == 2)
    apply(.write(.decr(3)), "mail", on: store)  // count 1: unseen at most 1
    #expect(unseen("mail") == 1)
    apply(.write(.decr(9)), "mail", on: store)
    #expect(unseen("mail") == 0)
  }

  @Test func setLowersItAndARiseAddsTheRise() {
    apply(.write(.set(6)), "mail", on: store)
    #expect(unseen("mail") == 6, "a rise by SET is an increase")
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    apply(.write(.set(8)), "mail", on: store)
    #expect(unseen("mail") == 2)
    apply(.write(.set(1)), "mail", on: store)
    #expect(unseen("mail") == 1)
    apply(.write(.set(1)), "mail", on: store)
    #expect(unseen("mail") == 1)
  }

  @Test func clearZeroesBoth() {
    apply(.write(.incr(3)), "mail", on: store)
    let outcome = apply(.write(.set(0)), "mail", on: store)
    #expect(outcome.channel.count == 0 && outcome.channel.unseen == 0)
  }

  @Test func settingsLeaveIt() {
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    apply(.write(.mute), "mail", on: store)
    apply(.configure(set: SettingsOverride(badge: .unseen), reset: []), "mail", on: store)
    #expect(unseen("mail") == 0)
    #expect(store.channel(named: name("mail")).count == 3)
  }

  @Test func seeAllTouchesOnlyChannelsWithUnseenItems() {
    apply(.write(.incr(2)), "b", on: store)
    apply(.write(.incr(1)), "a", on: store)
    apply(.write(.incr(1)), "c", on: store)
    apply(.write(.seen(upTo: nil)), "c", on: store)
    var seen: [(String, Int, Int)] = []
    store.writeAll(.seen(upTo: nil), now: 0) {
      seen.append(($0.channel.name.description, $0.channel.count, $0.previousCount))
    }
    #expect(seen.map(\.0) == ["a", "b"])
    #expect(seen.map(\.1) == [1, 2])
    #expect(store.listed.allSatisfy { $0.unseen == 0 })
  }

  @Test func theLabelCountsUnseenItemsWithBadgeUnseen() {
    apply(.configure(set: SettingsOverride(badge: .unseen), reset: []), "mail", on: store)
    apply(.write(.incr(4)), "mail", on: store)
    #expect(store.channel(named: name("mail")).label == "4")
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    #expect(store.channel(named: name("mail")).label == Label.quietDot)
    apply(.write(.incr(1)), "mail", on: store)
    #expect(store.channel(named: name("mail")).label == "1")
    #expect(store.channel(named: name("mail")).snapshot(at: 0).unseen == 1)
    apply(.write(.set(0)), "mail", on: store)
    #expect(store.channel(named: name("mail")).label == "")
  }

  @Test func aForgottenChannelKeepsNoUnseenItems() {
    apply(.write(.incr(2)), "mail", on: store)
    apply(.write(.decr(2)), "mail", on: store)
    #expect(!store.channel(named: name("mail")).isListed, "unseen ≤ count = 0 keeps nothing alive")
  }

  @Test func restoreKeepsItWithinTheCount() {
    store.restore(name: name("mail"), count: 3, unseen: 9, override: SettingsOverride(), seq: 1)
    #expect(unseen("mail") == 3)
    store.restore(name: name("chat"), count: 3, unseen: 1, override: SettingsOverride(), seq: 2)
    #expect(unseen("chat") == 1)
    store.restore(name: name("old"), count: 5, override: SettingsOverride(), seq: 3)
    #expect(unseen("old") == 5, "a record from before unseen existed: all unseen")
  }
}
