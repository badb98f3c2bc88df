@testable import BadgeDaemon
import BadgeCore
import Testing

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

  @Test func aCongestedWatcherGetsEachChannelsLatestStateOnceInFirstChangeOrder() {
    let slow = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "INCR b", "INCR a", "INCR b", "SET a 7", "INCR c")
    turns.endTurn()
    #expect(slow.output.count == Subscriptions.eventHighWater, "nothing appended while congested")
    #expect(slow.mergedChannels.map(\.description) == ["b", "a", "c"])
    slow.discardOutput()  // the outbox sent it
    #expect(turns.subscriptions.appendMergedEvents(to: slow, from: turns.store, now: turns.now))
    #expect(turns.take(slow).map { "\($0.split(separator: " ")[1]) \(field($0, "count")!)" } == ["b 2", "a 7", "c 1"])
    #expect(slow.mergedChannels.isEmpty && slow.mergedSet.isEmpty)
    #expect(!turns.subscriptions.appendMergedEvents(to: slow, from: turns.store, now: turns.now))
  }

  @Test func oneMergedChannelKeepsLaterEventsMergedUntilItIsSent() {
    let slow = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "INCR a")
    turns.endTurn()
    slow.discardOutput()
    turns.send(writer, "INCR b")  // the output drained, but "a" is still held back
    turns.endTurn()
    #expect(slow.output.isEmpty, "no event may overtake a held-back one")
    #expect(slow.mergedChannels.map(\.description) == ["a", "b"])
  }
}
