import BadgeCore
import Testing

@testable import BadgeMesh

/// Shared do-not-disturb alone: each side's change held until the other side is ready.
@Suite struct SharedDNDPartTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")

  static func shared() -> SharedDND { SharedDND(config: meshConfig(dnd: .shared), topics: topics) }

  @Test func aChangeMadeBeforeTheRetainedStatesGoesOnceTheyAreIn() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.localChanged(.init(on: true, leftMs: 0), links: links(synced: false), at: partTime, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    dnd.synced(into: &outbox)
    #expect(
      outbox.takeActions().payloads(on: "badged/ana/dnd/state") == [
        #"{"on":true,"until":0,"at":1764620000000,"host":"desktop"}"#
      ])
    dnd.synced(into: &outbox)
    #expect(outbox.takeActions().isEmpty)
  }

  @Test func aHeldChangeIsNotPublishedWhenANewerOneWasHeard() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.localChanged(.init(on: true, leftMs: 0), links: links(synced: false), at: partTime, into: &outbox)
    dnd.stateHeard(
      Array(#"{"on":false,"until":0,"at":1764620000100,"host":"laptop"}"#.utf8), links: links(daemonReady: false),
      at: partTime, into: &outbox)
    dnd.synced(into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    // The other machine's change waited for the daemon.
    dnd.daemonReady(at: partTime, into: &outbox)
    #expect(outbox.takeActions().sent == ["DND off from=laptop at=1764620000100"])
  }

  @Test func anAppliedChangeComingBackIsNotPublishedAgain() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.stateHeard(
      Array(#"{"on":true,"until":0,"at":1764620000100,"host":"laptop"}"#.utf8), links: links(), at: partTime,
      into: &outbox)
    #expect(outbox.takeActions().sent == ["DND on from=laptop at=1764620000100"])
    var echo = partTime
    echo.monotonic += SharedDND.echoWindow - 1
    dnd.localChanged(.init(on: true, leftMs: 0), links: links(), at: echo, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    // Only once: the next change is this machine's.
    dnd.localChanged(.init(on: true, leftMs: 0), links: links(), at: echo, into: &outbox)
    #expect(outbox.takeActions().published.count == 1)
  }

  @Test func badRequestsAreDroppedWithADebugLine() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.setHeard(Array("toggle".utf8), links: links(), at: partTime, into: &outbox)
    dnd.setHeard(Array("ON".utf8), links: links(daemonReady: false), at: partTime, into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.sent.isEmpty)
    #expect(actions.logged.count == 2 && actions.logged.allSatisfy { $0.hasPrefix("debug: ") })
    #expect(actions.logged.last == "debug: Ignored a do-not-disturb request: badged is not reachable.")
  }
}
