import BadgeCore
import Testing

@testable import BadgeServer

/// The bridge's requests in the core, turn by turn: forwarded writes are recorded with their
/// changes and pushed only once saved; a failed commit takes them back out of the outbox and
/// pushes nothing; the bridge's leaving makes every mirror stale in a turn of its own.
@Suite struct BridgeTurnTests {
  let turns = Turns()

  /// A bridge that mirrors `ci` and takes the outbox, its replies read.
  func bridge() -> Peer {
    let bridge = turns.peer()
    turns.send(bridge, "BRIDGE host=laptop", "MIRROR ci owner=server count=3 total=10", "FORWARDS")
    turns.endTurn()
    _ = turns.take(bridge)
    return bridge
  }

  @Test func aWriteIsRecordedWithItsChangeAndPushedOnceSaved() {
    let bridge = bridge()
    let client = turns.peer()
    turns.send(client, "INCR ci")
    #expect(bridge.output.isEmpty, "nothing is pushed before the commit")
    turns.endTurn()
    #expect(turns.take(bridge) == ["FORWARD localhost:0:1 INCR ci 1 id=localhost:0:1"])
    #expect(turns.log.savedForwards == ["+localhost:0:1"])
    turns.send(bridge, "DELIVERED localhost:0:1")
    turns.endTurn()
    #expect(turns.take(bridge) == ["OK"])
    #expect(turns.log.savedForwards == ["+localhost:0:1", "-localhost:0:1"])
    #expect(turns.log.saved.last?.mirror?.pending == false, "the channel's pending went with it, saved")
  }

  @Test func aFailedCommitTakesTheWriteBackAndPushesNothing() {
    let bridge = bridge()
    let client = turns.peer()
    turns.log.failCommits = true
    turns.send(client, "INCR ci", "CLEAR ci")
    turns.endTurn()
    #expect(bridge.output.isEmpty)
    #expect(turns.store.outbox.count == 0 && turns.store.outbox.nextCounter == 1)
    #expect(turns.store.channel(named: name("ci")).count == 3)
    #expect(turns.store.channel(named: name("ci")).mirror?.pending == false)
    #expect(turns.closed.map(\.id) == [client.id])
  }

  @Test func theBridgeLeavingMakesEveryMirrorStaleInATurnOfItsOwn() {
    let bridge = bridge()
    let watcher = turns.watcher()
    turns.core.closed(bridge)
    #expect(turns.core.bridgeLeftMirrors)
    turns.clock.wall = 1_764_620_123_456
    turns.core.bridgeWentAway()
    turns.endTurn()
    #expect(!turns.core.bridgeLeftMirrors)
    #expect(
      turns.take(watcher) == [
        "EVENT ci count=3 label=3 dot=0 pulse=0 muted=0 seq=2 badge=count dnd=off unseen=3 total=10 owner=server "
          + "stale=1 since=1764620123"
      ])
    // A new bridge may come; the old one's writes stay pushed to no one.
    let client = turns.peer()
    turns.send(client, "INCR ci")
    turns.endTurn()
    #expect(bridge.output.isEmpty)
    #expect(turns.store.outbox.count == 1)
  }
}
