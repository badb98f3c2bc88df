import BadgeCore
import BadgeMesh
import Testing

/// Shared do-not-disturb through the core: the daemon's state published on this machine's
/// topic with the daemon's stamp, greater changes of any machine handed to the daemon.
@Suite struct MeshCoreDNDTests {
  static let own = "badged/ana/host/desktop/dnd"
  static let laptop = "badged/ana/host/laptop/dnd"

  static func ready() -> MeshHarness {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon()
    bridge.connectBroker()
    return bridge
  }

  @Test func aLocalChangeIsPublished() {
    let bridge = Self.ready()
    let timed = bridge.daemon("EVENT * dnd=1 left=1800000 at=1764620000000")
    #expect(timed.payloads(on: Self.own) == [#"{"on":true,"until":1764621800000,"at":1764620000000,"host":"desktop"}"#])
    #expect(timed.published.first?.retain == true)
    let off = bridge.daemon("EVENT * dnd=0 left=0 at=1764620000500")
    #expect(off.payloads(on: Self.own) == [#"{"on":false,"until":0,"at":1764620000500,"host":"desktop"}"#])
  }

  /// Another machine's greater change goes to the daemon; once the daemon took it, it is this
  /// machine's state too, published as it was heard.
  @Test func aGreaterChangeIsHandedToTheDaemonAndPublishedOnceTaken() {
    let bridge = Self.ready()
    let heard = #"{"on":true,"until":1764621000000,"at":1764620000100,"host":"laptop"}"#
    #expect(bridge.message(Self.laptop, heard).requests == ["DND on 1000000ms from=laptop at=1764620000100"])
    bridge.daemon("STATE * dnd=1 left=1000000 from=laptop at=1764620000100", "OK")
    #expect(bridge.daemon("EVENT * dnd=1 left=1000000 from=laptop at=1764620000100").payloads(on: Self.own) == [heard])
    // An older one is not handed on, nor the same one published by a third machine.
    #expect(bridge.message(Self.laptop, #"{"on":false,"until":0,"at":1764620000099,"host":"nas"}"#).isEmpty)
    #expect(bridge.message("badged/ana/host/nas/dnd", heard).isEmpty)
    // This machine's own, heard back, neither.
    let made = bridge.daemon("EVENT * dnd=0 left=0 at=1764620000200")
    #expect(bridge.message(Self.own, made.payloads(on: Self.own)[0]).isEmpty)
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
    #expect(bridge.daemon("EVENT * dnd=1 left=0 at=1764620000000").isEmpty)
    #expect(bridge.message(Self.laptop, #"{"on":true,"until":0,"at":1764620000100,"host":"laptop"}"#).isEmpty)
    #expect(bridge.message("badged/ana/dnd/set", "ON").isEmpty)
  }

  @Test func aSnapshotWithItsTimeTakesPartInTheOrder() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    let actions = bridge.connectBroker(retained: [
      (Self.laptop, #"{"on":false,"until":0,"at":1764600000000,"host":"laptop"}"#)
    ])
    #expect(actions.payloads(on: Self.own) == [#"{"on":true,"until":0,"at":1764610000000,"host":"desktop"}"#])
    #expect(actions.requests.filter { $0.hasPrefix("DND") }.isEmpty)
    let newer = MeshHarness(meshConfig(dnd: .shared))
    newer.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    let applied = newer.connectBroker(retained: [
      (Self.laptop, #"{"on":false,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(applied.requests.filter { $0.hasPrefix("DND") } == ["DND off from=laptop at=1764615000000"])
  }

  /// The daemon stamps every change made there, also while no bridge runs: the bridge that
  /// starts later publishes it as made then, not as a change of its own start.
  @Test func aChangeMadeWhileTheBridgeWasAwayIsPublishedWhenItStarts() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectDaemon(dnd: "STATE * dnd=1 left=600000 at=1764619000000")
    let actions = bridge.connectBroker()
    #expect(
      actions.payloads(on: Self.own) == [#"{"on":true,"until":1764620600000,"at":1764619000000,"host":"desktop"}"#])
    #expect(actions.requests.filter { $0.hasPrefix("DND") }.isEmpty)
  }

  /// Never changed anywhere: the topic still says "off" from the first start, as made at the
  /// first millisecond; a real change of another machine, retained, is greater, and so is a
  /// state never changed on a machine whose name is greater (the tie's rule), which leaves
  /// do-not-disturb off.
  @Test func aStateNeverChangedIsPublishedAsTheOldestPossible() {
    let neverChanged = #"{"on":false,"until":0,"at":1,"host":"desktop"}"#
    let fresh = MeshHarness(meshConfig(dnd: .shared))
    fresh.connectDaemon()
    #expect(fresh.connectBroker().payloads(on: Self.own) == [neverChanged])
    let joining = MeshHarness(meshConfig(dnd: .shared))
    joining.connectDaemon()
    let heard = joining.connectBroker(retained: [
      (Self.laptop, #"{"on":true,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(heard.requests.filter { $0.hasPrefix("DND") } == ["DND on from=laptop at=1764615000000"])
    let tie = MeshHarness(meshConfig(dnd: .shared))
    tie.connectDaemon()
    let tied = tie.connectBroker(retained: [(Self.laptop, #"{"on":false,"until":0,"at":1,"host":"laptop"}"#)])
    #expect(tied.requests.filter { $0.hasPrefix("DND") } == ["DND off from=laptop at=1"])
  }

  /// Whichever comes first, the broker's retained state or the daemon's: an older change found
  /// at start is not made newer than one heard before, which is handed to the daemon.
  @Test func anOlderChangeFoundAtStartLosesToANewerOneHeardBefore() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    let heard = bridge.connectBroker(retained: [
      (Self.laptop, #"{"on":false,"until":0,"at":1764615000000,"host":"laptop"}"#)
    ])
    #expect(heard.requests.isEmpty, "the daemon is not ready")
    let started = bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    #expect(started.requests.filter { $0.hasPrefix("DND") } == ["DND off from=laptop at=1764615000000"])
    #expect(started.payloads(on: Self.own) == [#"{"on":true,"until":0,"at":1764610000000,"host":"desktop"}"#])
  }

  /// The state this machine published before it stopped, heard back with the daemon's stamp:
  /// nothing for the daemon.
  @Test func theSameChangeHeardBackIsNotHandedToTheDaemon() {
    let bridge = MeshHarness(meshConfig(dnd: .shared))
    bridge.connectBroker(retained: [(Self.own, #"{"on":true,"until":0,"at":1764610000000,"host":"desktop"}"#)])
    let started = bridge.connectDaemon(dnd: "STATE * dnd=1 left=0 at=1764610000000")
    #expect(started.requests.filter { $0.hasPrefix("DND") }.isEmpty)
  }
}
