import BadgeCore
import Testing

@testable import BadgeServer

/// Commands against the store, and when their events go out, without sockets.
@Suite struct CommandExecutorTests {
  let turns = Turns()

  @Test func changesAnswerWithTheStateAndAreRecordedOncePerChange() {
    let client = turns.peer()
    turns.send(client, "INCR mail 2", "DECR mail", "DECR chat", "GET mail")
    #expect(
      turns.take(client) == [
        "STATE mail count=2 label=2 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=2 total=2", "OK",
        "STATE mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=2 badge=count dnd=off unseen=1 total=2", "OK",
        "STATE chat count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK",
        "STATE mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=2 badge=count dnd=off unseen=1 total=2", "OK",
      ])
    #expect(turns.log.pending.map(\.count) == [2, 1], "a DECR at 0 is no change")
    turns.endTurn()
    #expect(turns.log.savedCounts == ["mail": 1])
  }

  @Test func eventsWaitForTheCommit() {
    let watcher = turns.peer()
    turns.send(watcher, "WATCH mail")
    #expect(
      turns.take(watcher) == [
        "STATE * dnd=0 left=0",
        "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK watching",
      ])
    turns.endTurn()
    let writer = turns.peer()
    turns.send(writer, "INCR mail", "INCR other")
    #expect(watcher.output.isEmpty, "nothing for a watcher before the turn's changes are saved")
    let queued = turns.endTurn()
    #expect(queued.map(\.id) == [writer.id, watcher.id], "the writer's replies, then the watcher's events")
    #expect(
      turns.take(watcher) == [
        "EVENT mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1"
      ])
  }

  @Test func aWatcherThatStartsMidTurnGetsOnlyLaterEvents() {
    let writer = turns.peer()
    let early = turns.watcher()
    turns.send(writer, "INCR a")
    let late = turns.peer()
    turns.send(late, "WATCH")
    #expect(
      turns.take(late) == [
        "STATE * dnd=0 left=0",
        "STATE a count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1", "OK watching",
      ])
    turns.send(writer, "INCR b")
    turns.endTurn()
    #expect(turns.take(early).map { $0.split(separator: " ")[1] } == ["a", "b"])
    #expect(turns.take(late).map { $0.split(separator: " ")[1] } == ["b"], "its snapshot showed a")
    turns.send(writer, "INCR a")
    turns.endTurn()
    #expect(turns.take(late).count == 1, "from the next turn on it gets everything")
  }

  @Test func quitAsksForTheConnectionToCloseAfterTheReply() {
    /// A peer that counts the times it was asked to end.
    final class Quitting: Peer {
      var quits = 0
      override func quit() { quits += 1 }
    }
    let client = Quitting(id: 99, pid: nil)
    turns.send(client, "QUIT")
    #expect(turns.take(client) == ["OK bye"])
    #expect(client.quits == 1)
  }

  @Test func reloadWithoutAReloaderFails() {
    let client = turns.peer()
    turns.send(client, "RELOAD")
    #expect(turns.take(client) == ["ERR failed This daemon cannot reload"])
  }
}
