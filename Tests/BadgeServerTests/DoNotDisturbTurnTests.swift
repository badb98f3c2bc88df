import BadgeCore
import Testing

@testable import BadgeServer

/// Do-not-disturb through the server's turn: saved before anything shows it, its event before
/// its channels', taken back with a failed commit, merged for congested watchers.
@Suite struct DoNotDisturbTurnTests {
  let turns = Turns()

  /// A peer that made a saved change (`setUp` of `mail`) and read its reply, and a watcher.
  func writerAndWatcher(_ setUp: String = "INCR mail") -> (writer: Peer, watcher: Peer) {
    let writer = turns.peer()
    turns.send(writer, setUp)
    turns.endTurn()
    _ = turns.take(writer)
    return (writer, turns.watcher())
  }

  @Test func itIsSavedThenPublishedCauseFirst() {
    let (writer, watcher) = writerAndWatcher()
    turns.send(writer, "DND on 30m")
    #expect(watcher.output.isEmpty, "nothing shows before the commit")
    turns.endTurn()
    #expect(turns.log.savedDND == [DoNotDisturb(isOn: true, until: turns.now + 1_800_000_000)])
    #expect(turns.take(writer) == ["STATE * dnd=1 left=1800000 at=1764620000000", "OK"])
    #expect(
      turns.take(watcher) == [
        "EVENT * dnd=1 left=1800000 at=1764620000000",
        "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 badge=count dnd=hide unseen=1 total=1",
      ])
    turns.send(writer, "DND", "DND on 30m")
    turns.endTurn()
    #expect(turns.log.savedDND.count == 1, "asking, or asking for what is in force, saves nothing")
    #expect(watcher.output.isEmpty)
  }

  @Test func aFailedCommitTakesItBack() {
    let (writer, watcher) = writerAndWatcher()
    turns.log.failCommits = true
    turns.send(writer, "DND on")
    turns.endTurn()
    #expect(turns.closed.map(\.id) == [writer.id], "closed without its reply")
    #expect(turns.store.dnd == .off)
    #expect(turns.store.channel(named: name("mail")).silenced == nil)
    #expect(watcher.output.isEmpty, "no event of an unsaved change")
  }

  @Test func aCongestedWatcherGetsTheLatestStateOnce() {
    let watcher = turns.congestedWatcher()
    let writer = turns.peer()
    turns.send(writer, "DND on", "DND off", "DND toggle")
    turns.endTurn()
    #expect(watcher.mergedDND)
    _ = turns.take(watcher)
    #expect(turns.appendMerged(to: watcher))
    // Three changes in one millisecond: each stamped one past the one before it.
    #expect(turns.take(watcher) == ["EVENT * dnd=1 left=0 at=1764620000002"])
    #expect(!turns.appendMerged(to: watcher))
  }

  @Test func pulseIsStagedLikeAWindowsEndAndSavesNothing() {
    let (writer, watcher) = writerAndWatcher("SET mail 2")
    let saved = turns.log.saved.count
    turns.send(writer, "PULSE mail 1500")  // 3000 ms are left: it would shorten the window
    turns.endTurn()
    #expect(watcher.output.isEmpty)
    _ = turns.take(writer)
    turns.now += 5_000_000
    turns.send(writer, "PULSE mail 1500")
    turns.endTurn()
    #expect(turns.log.saved.count == saved)
    #expect(
      turns.take(writer) == [
        "STATE mail count=2 label=2 dot=0 pulse=1500 muted=0 seq=1 badge=count dnd=off unseen=2 total=2", "OK",
      ])
    #expect(
      turns.take(watcher) == [
        "EVENT mail count=2 label=2 dot=0 pulse=1500 muted=0 seq=1 badge=count dnd=off unseen=2 total=2"
      ])
  }
}
