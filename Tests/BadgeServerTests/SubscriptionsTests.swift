import BadgeCore
import Testing

@testable import BadgeServer

/// Fan-out to watchers, and per-channel merging for a congested one.
@Suite struct SubscriptionsTests {
  let turns = Turns()

  @Test func patternsChooseWhoGetsWhat() {
    let mail = turns.watcher("WATCH mail")
    let apps = turns.watcher("WATCH app:*")
    let writer = turns.peer()
    turns.send(writer, "INCR mail", "INCR app:x", "INCR other")
    turns.endTurn()
    #expect(turns.take(mail).map { $0.split(separator: " ")[1] } == ["mail"])
    #expect(turns.take(apps).map { $0.split(separator: " ")[1] } == ["app:x"])
    turns.send(mail, "UNWATCH")
    _ = turns.take(mail)
    turns.send(writer, "INCR mail")
    turns.endTurn()
    #expect(mail.output.isEmpty)
    #expect(turns.subscriptions.count == 1)
  }

  @Test func aTurnsEventsReachEachWatcherInOrderWhetherItTakesAllOfThemOrSome() {
    let all = turns.watcher()
    let mail = turns.watcher("WATCH mail")
    let writer = turns.peer()
    turns.send(writer, "INCR mail", "INCR chat", "INCR mail", "DND on", "INCR chat", "INCR mail")
    turns.endTurn()
    let channels = { (lines: [String]) in lines.map { "\($0.split(separator: " ")[1]) \(field($0, "count") ?? "")" } }
    #expect(
      channels(turns.take(all)) == ["mail 1", "chat 1", "mail 2", "* ", "mail 2", "chat 1", "chat 2", "mail 3"],
      "do-not-disturb in its place, then the channels it silences")
    #expect(channels(turns.take(mail)) == ["mail 1", "mail 2", "* ", "mail 2", "mail 3"])
  }

  @Test func aWatcherThatReachesTheHighWaterMarkInsideARunFallsBehindThere() {
    let nearlyFull = turns.watcher()
    let line = "EVENT a count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1\n".utf8
      .count
    // Room for exactly two more lines before the high-water mark.
    nearlyFull.output = Array(repeating: 0x20, count: Subscriptions<Peer>.eventHighWater - 2 * line + 1)
    let writer = turns.peer()
    turns.send(writer, "INCR a", "INCR b", "INCR c", "INCR a")
    turns.endTurn()
    let appended = Array(
      nearlyFull.output.suffix(nearlyFull.output.count - (Subscriptions<Peer>.eventHighWater - 2 * line + 1)))
    #expect(
      String(decoding: appended, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: " ")[1]) } == [
        "a", "b",
      ])
    #expect(nearlyFull.behindFrom != nil)
    nearlyFull.discardOutput()
    #expect(turns.appendMerged(to: nearlyFull))
    #expect(turns.take(nearlyFull).map { "\($0.split(separator: " ")[1]) \(field($0, "count")!)" } == ["c 1", "a 2"])
    #expect(turns.subscriptions.backlog.isEmpty)
  }

  @Test func aWatcherBehindGetsEachChannelsLatestStateOnceInEventOrder() {
    let slow = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "INCR b", "INCR a", "INCR b", "SET a 7", "INCR c")
    turns.endTurn()
    #expect(slow.output.count == Subscriptions<Peer>.eventHighWater, "nothing appended while congested")
    #expect(slow.behindFrom != nil)
    #expect(turns.subscriptions.backlog.count == 3, "one entry per channel")
    slow.discardOutput()  // the outbox sent it
    #expect(turns.appendMerged(to: slow))
    #expect(turns.take(slow).map { "\($0.split(separator: " ")[1]) \(field($0, "count")!)" } == ["b 2", "a 7", "c 1"])
    #expect(slow.behindFrom == nil)
    #expect(turns.subscriptions.backlog.isEmpty, "nobody behind: nothing kept")
    #expect(!turns.appendMerged(to: slow))
  }

  @Test func aWatcherBehindGetsNothingNewUntilItCaughtUp() {
    let slow = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "INCR a")
    turns.endTurn()
    slow.discardOutput()
    turns.send(writer, "INCR b")  // the output drained, but "a" is still held back
    turns.endTurn()
    #expect(slow.output.isEmpty, "no event may overtake a held-back one")
    #expect(turns.appendMerged(to: slow))
    #expect(turns.take(slow).map { String($0.split(separator: " ")[1]) } == ["a", "b"])
  }

  @Test func aForgottenChannelReachesAWatcherBehindAsItsLastChangeNotAsNew() {
    let slow = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "INCR gone", "CLEAR gone")  // count 0, no setting: the store forgets it
    turns.endTurn()
    #expect(turns.store.channels.isEmpty)
    slow.discardOutput()
    turns.appendMerged(to: slow)
    let events = turns.take(slow)
    #expect(
      events.count == 1 && events[0].hasPrefix("EVENT gone count=0 ") && field(events[0], "seq") == "2", "\(events)")
  }

  @Test func watchersBehindShareOneEntryPerChannelAndEachCatchesUpAlone() {
    let slow = (0..<100).map { _ in turns.congestedWatcher() }
    let writer = turns.peer()
    for round in 0..<10 { turns.send(writer, "INCR a", "INCR b", "INCR c\(round)") }
    turns.endTurn()
    #expect(turns.subscriptions.backlog.count == 12)
    slow[0].discardOutput()
    turns.appendMerged(to: slow[0])
    #expect(turns.take(slow[0]).count == 12)
    #expect(turns.subscriptions.backlog.count == 12, "the others still need it")
    for peer in slow.dropFirst() {
      peer.discardOutput()
      turns.appendMerged(to: peer)
      #expect(turns.take(peer).suffix(2).map { String($0.split(separator: " ")[1]) } == ["b", "c9"])
    }
    #expect(turns.subscriptions.backlog.isEmpty)
  }

  /// Events stop at the high-water mark: a watcher that reads nothing holds at most that and
  /// one line, whatever the number of events.
  @Test func aWatcherThatReadsNothingHoldsAtMostTheHighWaterMark() {
    let watcher = turns.watcher()
    let writer = turns.peer()
    for i in 0..<1000 { turns.send(writer, "INCR ch\(i % 10)") }
    turns.endTurn()
    #expect(Subscriptions<Peer>.eventHighWater == 8 << 10)
    #expect(watcher.output.count >= Subscriptions<Peer>.eventHighWater)
    #expect(watcher.output.count < Subscriptions<Peer>.eventHighWater + 200, "one line past the mark at most")
    #expect(watcher.output.capacity <= 2 * Subscriptions<Peer>.eventHighWater)
    #expect(watcher.behindFrom != nil)
    #expect(turns.subscriptions.backlog.count == 10, "one entry per channel, not per event")
  }

  /// When a watcher catches up, entries no watcher still behind needs are dropped only once
  /// there are more than 64 and twice as many as after the last pruning (finding the oldest
  /// watcher behind looks at every watcher); the ones kept meanwhile reach nobody.
  @Test func theBacklogIsPrunedOnceItHasGrownAndKeepsOnlyWhatIsNeeded() {
    let first = turns.congestedWatcher()
    let writer = turns.peer()
    for round in 0..<10 { turns.send(writer, "INCR old\(round)") }
    turns.endTurn()
    let second = turns.congestedWatcher()
    for round in 0..<5 { turns.send(writer, "INCR new\(round)") }
    turns.endTurn()
    first.discardOutput()
    turns.appendMerged(to: first)
    #expect(turns.take(first).count == 15)
    #expect(turns.subscriptions.backlog.count == 15, "15 entries: not pruned")
    turns.send(first, "UNWATCH")
    for round in 5..<100 { turns.send(writer, "INCR new\(round)") }
    turns.endTurn()
    let third = turns.congestedWatcher()
    turns.send(writer, "INCR last")
    turns.endTurn()
    var caughtUp: [String] = []
    while second.behindFrom != nil {  // up to the high-water mark at a time
      second.discardOutput()
      turns.appendMerged(to: second)
      caughtUp += turns.take(second)
    }
    #expect(caughtUp.map { String($0.split(separator: " ")[1]) } == (0..<100).map { "new\($0)" } + ["last"])
    #expect(turns.subscriptions.backlog.count == 1, "111 entries pruned to the one the third watcher missed")
    third.discardOutput()
    turns.appendMerged(to: third)
    #expect(turns.take(third).map { String($0.split(separator: " ")[1]) } == ["last"])
    #expect(turns.subscriptions.backlog.isEmpty)
  }
}
