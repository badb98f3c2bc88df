import BadgeCore
import Testing

@testable import BadgeMesh

/// The broker session alone: its marker, its phases, its error.
@Suite struct BrokerSessionTests {
  @Test func eachConnectionWaitsForItsOwnMarker() {
    var session = BrokerSession()
    let first = session.connected(at: partTime)
    #expect(first == "1-1764620000000")
    #expect(session.isUp && !session.isSynced)
    #expect(!session.isAwaitedMarker(Array("0-1764620000000".utf8)))
    _ = session.down(error: "connection refused")
    #expect(session.error == "connection refused")
    #expect(!session.isAwaitedMarker(Array(first.utf8)))
    let second = session.connected(at: partTime)
    #expect(second == "2-1764620000000" && session.error == nil)
    #expect(!session.isAwaitedMarker(Array(first.utf8)))
    #expect(session.isAwaitedMarker(Array(second.utf8)))
    session.markSynced()
    #expect(session.isSynced && session.nextDeadline == nil)
    let wasUp = session.down(error: nil)
    let again = session.down(error: nil)
    #expect(wasUp && !again)
  }

  @Test func aMarkerTenSecondsLateIsGoneOnWithoutAndSaidSo() {
    var session = BrokerSession()
    _ = session.connected(at: partTime)
    #expect(session.nextDeadline == 15_000_000)
    var outbox = MeshOutbox()
    #expect(!session.markerOverdue(now: 14_999_999, topic: "badged/ana/host/desktop/sync", into: &outbox))
    #expect(outbox.takeActions().isEmpty)
    #expect(session.markerOverdue(now: 15_000_000, topic: "badged/ana/host/desktop/sync", into: &outbox))
    #expect(
      outbox.takeActions().logged == [
        "warning: The sync marker on badged/ana/host/desktop/sync did not come back within 10 s (does the "
          + "broker's ACL let this host publish and subscribe to it?); going on without it."
      ])
  }
}
