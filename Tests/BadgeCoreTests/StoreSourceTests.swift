import Testing

@testable import BadgeCore

/// Channels a source counts: a source's report (`SET … new= unseen=`), claims and releases, a
/// clear read as a sight, the `badge = unseen` default, staleness, and what is refused.
@Suite struct StoreSourceTests {
  let store = Store()

  func channel(_ text: String) -> Channel { store.channel(named: name(text)) }

  func report(_ n: Int, new k: Int, unseen u: Int? = nil, at now: UInt64 = 0) -> Store.Outcome {
    apply(.write(.report(count: n, arrived: k, unseen: u)), "mail", on: store, at: now)
  }

  @Test func aReportAddsItsArrivalsToTheTotalAndUnseen() {
    _ = report(4, new: 4)
    #expect(channel("mail").count == 4 && channel("mail").unseen == 4 && channel("mail").total == 4)
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    // One read elsewhere, one arrived: the count stays, the total and unseen grow by one.
    let turn = report(4, new: 1, at: 1_000)
    #expect(turn.changed)
    #expect(turn.channel.count == 4 && turn.channel.unseen == 1 && turn.channel.total == 5)
    #expect(turn.channel.pulseUntil == 1_000 + 3_000_000, "an arrival pulses, though the count did not rise")
    #expect(store.history.days(of: name("mail")).map(\.figures.arrivals) == [5], "STATS counts it an arrival too")
  }

  @Test func aRiseBeyondTheNewItemsCountsAsArrivals() {
    _ = report(2, new: 0)
    #expect(channel("mail").total == 2 && channel("mail").unseen == 2, "max(k, n - count): 2")
    _ = report(7, new: 3)
    #expect(channel("mail").total == 7 && channel("mail").unseen == 7)
  }

  @Test func unseenNeverPassesTheCountNorTheSourcesFigure() {
    _ = report(3, new: 3)
    let fall = report(1, new: 0)
    #expect(fall.channel.count == 1 && fall.channel.unseen == 1 && fall.channel.total == 3)
    _ = report(5, new: 4, unseen: 2)
    #expect(channel("mail").unseen == 2 && channel("mail").total == 7)
    #expect(!report(5, new: 0, unseen: 9).changed, "a stale figure, too high, changes nothing")
  }

  @Test func aReportWithNothingNewIsNoChangeAndDoesNotPulse() {
    _ = report(3, new: 3)
    apply(.write(.seen(upTo: nil)), "mail", on: store)
    let again = report(3, new: 0, at: 9_000_000)
    #expect(!again.changed && again.channel.seq == 2)
  }

  @Test func aReportPastTheLargestCountIsRefused() {
    #expect(throws: Store.MutationError.countOutOfRange(current: 0)) {
      try store.apply(.write(.report(count: Limits.maxCount + 1, arrived: 0, unseen: nil)), to: name("mail"), now: 0)
    }
  }

  @Test func aClaimMarksTheChannelAndKeepsItAtZero() throws {
    let claim = try store.claim(name("mail"), by: "inbox", now: 0)
    #expect(claim.changed && claim.channel.seq == 1)
    #expect(claim.channel.source == SourceMark(name: "inbox"))
    #expect(store.listed.map(\.name.description) == ["mail"], "a claimed channel is listed at 0")
    _ = report(2, new: 2)
    _ = report(0, new: 0)
    #expect(store.listed.map(\.name.description) == ["mail"], "and never forgotten")
    #expect(!(try store.claim(name("mail"), by: "inbox", now: 0)).changed, "claimed again: no change")
  }

  @Test func aClaimedChannelShowsItsUnseenItemsUnlessConfigured() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    #expect(channel("mail").settings.badge == .unseen)
    var config = ChannelConfig()
    config.sections = [.init(pattern: ChannelPattern("mail")!, override: SettingsOverride(badge: .count))]
    store.reconfigure(config) { _ in }
    #expect(channel("mail").settings.badge == .count, "a section's badge wins")
    try store.claim(name("lists"), by: "lists", now: 0)
    #expect(channel("lists").settings.badge == .unseen)
    apply(.configure(set: SettingsOverride(badge: .count), reset: []), "lists", on: store)
    #expect(channel("lists").settings.badge == .count, "CONFIGURE wins too")
  }

  @Test func aClearOfAClaimedChannelMarksItSeenUpToTheSameTotal() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    _ = report(5, new: 5)
    _ = report(6, new: 1)  // total 6
    let clear = apply(.write(.clear(upTo: 5)), "mail", on: store)
    #expect(clear.changed && clear.channel.count == 6 && clear.channel.unseen == 1)
    #expect(clear.channel.label == "1")
    apply(.write(.clear(upTo: nil)), "mail", on: store)
    #expect(channel("mail").count == 6 && channel("mail").unseen == 0 && channel("mail").label == "◦")
  }

  @Test func countingWritesOfAClaimedChannelAreRefused() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    _ = report(2, new: 2)
    for write in [ChannelWrite.incr(1), .decr(1), .set(5)] {
      #expect(throws: Store.MutationError.sourced(source: "inbox")) {
        try store.apply(.write(write), to: name("mail"), now: 0)
      }
    }
    #expect(channel("mail").count == 2 && channel("mail").seq == 2, "nothing changed")
  }

  @Test func anotherSourcesClaimAndAMirroredChannelAreRefused() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    #expect(throws: Store.MutationError.claimed(by: "inbox")) { try store.claim(name("mail"), by: "other", now: 0) }
    #expect(throws: Store.MutationError.claimed(by: "inbox")) { try store.release(name("mail"), by: "other", now: 0) }
    apply(.mirror(StoreMirrorTests.ci), "ci", on: store)
    #expect(throws: Store.MutationError.mirrored(owner: "server")) { try store.claim(name("ci"), by: "inbox", now: 0) }
    #expect(throws: Store.MutationError.mirrored(owner: "server")) {
      try store.apply(.write(.report(count: 1, arrived: 1, unseen: nil)), to: name("ci"), now: 0)
    }
  }

  @Test func aReleaseMakesItAnOrdinaryChannelAgain() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    _ = report(3, new: 3)
    let release = try store.release(name("mail"), by: "inbox", now: 0)
    #expect(release.changed && release.channel.source == nil && release.channel.settings.badge == .count)
    apply(.write(.incr(1)), "mail", on: store)
    #expect(channel("mail").count == 4)
    try store.claim(name("empty"), by: "inbox", now: 0)
    try store.release(name("empty"), by: "inbox", now: 0)
    #expect(store.listed.map(\.name.description) == ["mail"], "released at 0 with no setting: forgotten")
  }

  @Test func staleMarksEveryChannelOfTheSourceOnceWithTheFirstSecond() throws {
    try store.claim(name("mail"), by: "inbox", now: 0)
    try store.claim(name("work"), by: "inbox", now: 0)
    try store.claim(name("rss"), by: "feeds", now: 0)
    var changed: [String] = []
    store.markSources("inbox", stale: true, since: 100, now: 0) { changed.append($0.channel.name.description) }
    #expect(changed == ["mail", "work"])
    store.markSources(nil, stale: true, since: 200, now: 0) { changed.append($0.channel.name.description) }
    #expect(changed == ["mail", "work", "rss"], "the stale ones stay as they were")
    #expect(channel("mail").source == SourceMark(name: "inbox", stale: true, since: 100))
    #expect(channel("rss").source == SourceMark(name: "feeds", stale: true, since: 200))
    #expect(channel("mail").snapshot(at: 0).source == SourceMark(name: "inbox", stale: true, since: 100))
    try store.claim(name("mail"), by: "inbox", now: 0)
    #expect(channel("mail").source == SourceMark(name: "inbox"), "a claim again makes it fresh")
    #expect(store.sourced(by: "inbox").map(\.name.description) == ["mail", "work"])
  }

  @Test func claimsAreTakenBackWithTheOtherChanges() throws {
    store.keepsUndo = true
    try store.claim(name("mail"), by: "inbox", now: 0)
    store.undoChanges()
    #expect(store.listed.isEmpty && channel("mail").source == nil)
  }
}
