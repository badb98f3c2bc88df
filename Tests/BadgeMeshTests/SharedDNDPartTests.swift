import BadgeCore
import Testing

@testable import BadgeMesh

/// Shared do-not-disturb alone: this machine's state published once the broker's retained
/// states are in, a heard change held until the daemon is ready.
@Suite struct SharedDNDPartTests {
  static let topics = MeshTopics(prefix: "badged/ana", host: "desktop")

  static func shared() -> SharedDND { SharedDND(config: meshConfig(dnd: .shared), topics: topics) }

  @Test func aChangeMadeBeforeTheRetainedStatesGoesOnceTheyAreIn() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.reported(
      .init(on: true, leftMs: 0, at: 1_764_620_000_000), links: links(synced: false), at: partTime, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    dnd.synced(into: &outbox)
    #expect(
      outbox.takeActions().payloads(on: "badged/ana/host/desktop/dnd") == [
        #"{"on":true,"until":0,"at":1764620000000,"host":"desktop"}"#
      ])
  }

  @Test func aChangeHeardBeforeTheDaemonIsReadyIsHandedToItThen() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.reported(
      .init(on: true, leftMs: 0, at: 1_764_620_000_000), links: links(synced: false), at: partTime, into: &outbox)
    dnd.stateHeard(
      Array(#"{"on":false,"until":0,"at":1764620000100,"host":"laptop"}"#.utf8), links: links(daemonReady: false),
      at: partTime, into: &outbox)
    #expect(outbox.takeActions().isEmpty)
    dnd.daemonReady(at: partTime, into: &outbox)
    #expect(outbox.takeActions().sent == ["DND off from=laptop at=1764620000100"])
  }

  /// Another machine's change the daemon took, reported back: published as this machine's
  /// state, as it was heard.
  @Test func aChangeTheDaemonTookIsPublishedAsThisMachinesState() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    let heard = #"{"on":true,"until":1764620300000,"at":1764620000100,"host":"laptop"}"#
    dnd.stateHeard(Array(heard.utf8), links: links(), at: partTime, into: &outbox)
    #expect(outbox.takeActions().sent == ["DND on 300000ms from=laptop at=1764620000100"])
    var later = partTime
    later.wallMs += 3
    dnd.reported(
      .init(on: true, leftMs: 299_998, from: "laptop", at: 1_764_620_000_100), links: links(), at: later, into: &outbox)
    #expect(outbox.takeActions().payloads(on: "badged/ana/host/desktop/dnd") == [heard])
  }

  /// A change stamped more than a day ahead of this clock would win over every real change
  /// until then: dropped; one a day ahead is taken.
  @Test func aChangeFarAheadOfThisClockIsDropped() {
    var dnd = Self.shared()
    var outbox = MeshOutbox()
    for (ahead, taken) in [(Claims.maxAhead + 1, false), (Claims.maxAhead, true)] {
      let at = partTime.wallMs + ahead
      dnd.stateHeard(
        Array(#"{"on":\#(taken),"until":0,"at":\#(at),"host":"laptop"}"#.utf8), links: links(), at: partTime,
        into: &outbox)
      let actions = outbox.takeActions()
      #expect(actions.sent == (taken ? ["DND on from=laptop at=\(at)"] : []))
      #expect(taken || actions.logged.first?.hasPrefix("debug: Dropped a do-not-disturb state made at") == true)
    }
  }

  @Test func badRequestsAreDroppedWithADebugLine() {
    let dnd = Self.shared()
    var outbox = MeshOutbox()
    dnd.setHeard(Array("toggle".utf8), links: links(), at: partTime, into: &outbox)
    dnd.setHeard(Array("ON".utf8), links: links(daemonReady: false), at: partTime, into: &outbox)
    let actions = outbox.takeActions()
    #expect(actions.sent.isEmpty)
    #expect(actions.logged.count == 2 && actions.logged.allSatisfy { $0.hasPrefix("debug: ") })
    #expect(actions.logged.last == "debug: Ignored a do-not-disturb request: badged is not reachable.")
  }
}
