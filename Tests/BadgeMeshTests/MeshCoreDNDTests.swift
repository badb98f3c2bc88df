import BadgeCore
import BadgeMesh
import Testing

/// Shared do-not-disturb through the core: local changes published, newer remote ones applied,
/// what comes back not published again.
@Suite struct MeshCoreDNDTests {
  static let dndState = "badged/ana/dnd/state"

  static func ready() -> MeshHarness {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon()
    bridge.connectBroker()
    return bridge
  }

  @Test func aLocalChangeIsPublished() {
    let bridge = Self.ready()
    let timed = bridge.daemon("EVENT * dnd=1 left=1800000")
    #expect(
      timed.payloads(on: Self.dndState) == [#"{"on":true,"until":1764621800000,"at":1764620000000,"host":"desktop"}"#])
    #expect(timed.published.first?.retain == true)
    let off = bridge.daemon("EVENT * dnd=0 left=0 at=1764620000500")
    #expect(off.payloads(on: Self.dndState) == [#"{"on":false,"until":0,"at":1764620000500,"host":"desktop"}"#])
  }

  @Test func aNewerRemoteChangeIsAppliedAndNotPublishedBack() {
    let bridge = Self.ready()
    let applied = bridge.message(
      Self.dndState, #"{"on":true,"until":1764621000000,"at":1764620000100,"host":"laptop"}"#)
    #expect(applied.requests == ["DND on 1000000ms from=laptop at=1764620000100"])
    bridge.daemon("STATE * dnd=1 left=1000000 from=laptop", "OK")
    #expect(bridge.daemon("EVENT * dnd=1 left=1000000 from=laptop at=1764620000100").isEmpty)
    // An older one is not applied.
    #expect(bridge.message(Self.dndState, #"{"on":false,"until":0,"at":1764620000099,"host":"nas"}"#).isEmpty)
    // This machine's own, heard back, neither.
    let made = bridge.daemon("EVENT * dnd=0 left=0")
    #expect(bridge.message(Self.dndState, made.payloads(on: Self.dndState)[0]).isEmpty)
  }

  @Test func aDaemonThatDoesNotSayWhereAChangeCameFromIsNotAnsweredWithALoop() {
    let bridge = Self.ready()
    bridge.message(Self.dndState, #"{"on":true,"until":0,"at":1764620000100,"host":"laptop"}"#)
    #expect(bridge.daemon("EVENT * dnd=1 left=0").isEmpty)
  }

  @Test func requestsOnTheSetTopicAreMadeHere() {
    let bridge = Self.ready()
    #expect(bridge.message("badged/ana/dnd/set", "ON").requests == ["DND on"])
    #expect(bridge.message("badged/ana/dnd/set", "OFF").requests == ["DND off"])
    #expect(bridge.message("badged/ana/dnd/set", #"{"on":true,"until":1764620090000}"#).requests == ["DND on 90000ms"])
    #expect(bridge.message("badged/ana/dnd/set", #"{"on":true,"until":1764619000000}"#).isEmpty)
    #expect(bridge.message("badged/ana/dnd/set", "toggle").isEmpty)
  }

  @Test func localDoNotDisturbIsNotShared() {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    bridge.connectBroker()
    #expect(bridge.daemon("EVENT * dnd=1 left=0").isEmpty)
    #expect(bridge.message(Self.dndState, #"{"on":true,"until":0,"at":1764620000100,"host":"laptop"}"#).isEmpty)
    #expect(bridge.message("badged/ana/dnd/set", "ON").isEmpty)
  }

  @Test func aSnapshotWithItsTimeTakesPartInLastWriterWins() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    let actions = bridge.connectBroker(retained: [
      (Self.dndState, #"{"on":false,"until":0,"at":1764600000000,"host":"laptop"}"#)
    ])
    #expect(actions.payloads(on: Self.dndState) == [#"{"on":true,"until":0,"at":1764610000000,"host":"desktop"}"#])
    let newer = MeshHarness(meshConfig(dnd: .shared))
    newer.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    let applied = newer.connectBroker(retained: [
      (Self.dndState, #"{"on":false,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(applied.payloads(on: Self.dndState).isEmpty)
    #expect(applied.requests == ["DND off from=laptop at=1764615000000"])
  }

  /// The daemon stamps every change made there, also while no bridge runs: the bridge that
  /// starts later publishes it as made then, not as a change of its own start.
  @Test func aChangeMadeWhileTheBridgeWasAwayIsPublishedWhenItStarts() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon(dnd: "STATE * dnd=1 left=600000 at=1764619000000")
    let actions = bridge.connectBroker()
    #expect(
      actions.payloads(on: Self.dndState) == [#"{"on":true,"until":1764620600000,"at":1764619000000,"host":"desktop"}"#]
    )
    #expect(actions.requests.filter { $0.hasPrefix("DND") }.isEmpty)
  }

  /// Never changed anywhere: the state topic still says "off" from the first start, as made at
  /// the first millisecond; a real change of another machine, retained, wins over it, and so
  /// does a state never changed on a machine whose name is greater (the tie's rule), which
  /// leaves do-not-disturb off.
  @Test func aStateNeverChangedIsPublishedAsTheOldestPossible() {
    let fresh = MeshHarness(meshConfig(dnd: .shared))
    fresh.connectDaemon()
    #expect(
      fresh.connectBroker().payloads(on: Self.dndState) == [#"{"on":false,"until":0,"at":1,"host":"desktop"}"#])
    let joining = MeshHarness(meshConfig(dnd: .shared))
    joining.connectDaemon()
    let heard = joining.connectBroker(retained: [
      (Self.dndState, #"{"on":true,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(heard.payloads(on: Self.dndState).isEmpty)
    #expect(heard.requests.filter { $0.hasPrefix("DND") } == ["DND on from=laptop at=1764615000000"])
    let tie = MeshHarness(meshConfig(dnd: .shared))
    tie.connectDaemon()
    let tied = tie.connectBroker(retained: [(Self.dndState, #"{"on":false,"until":0,"at":1,"host":"laptop"}"#)])
    #expect(tied.payloads(on: Self.dndState).isEmpty)
    #expect(tied.requests.filter { $0.hasPrefix("DND") } == ["DND off from=laptop at=1"])
  }

  /// Whichever comes first, the broker's retained state or the daemon's: an older change found
  /// at start is not restamped past a newer one, which is applied instead.
  @Test func anOlderChangeFoundAtStartLosesToANewerOneHeardBefore() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    let heard = bridge.connectBroker(retained: [
      (Self.dndState, #"{"on":false,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(heard.payloads(on: Self.dndState).isEmpty)
    let started = bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    #expect(started.payloads(on: Self.dndState).isEmpty, "nothing published over the newer change")
    #expect(started.requests.filter { $0.hasPrefix("DND") } == ["DND off from=laptop at=1764615000000"])
  }

  /// A state the bridge published before it stopped, heard back with the same time as the
  /// daemon's: nothing to publish again.
  @Test func theSameChangeHeardBackIsNotPublishedAgain() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectBroker(retained: [
      (Self.dndState, #"{"on":true,"until":0,"at":1764610000000,"host":"desktop"}"#)
    ])
    let started = bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    #expect(started.payloads(on: Self.dndState).isEmpty)
    #expect(started.requests.filter { $0.hasPrefix("DND") }.isEmpty)
  }
}
