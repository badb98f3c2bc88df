import BadgeCore
import BadgeMesh
import Testing

/// The bridge as an owner: greeting its daemon, claiming and publishing shared channels,
/// coalescing, carrying out other machines' writes.
@Suite struct MeshCoreOwnerTests {
  static let mailState = "badged/ana/host/desktop/ch/mail/state"

  @Test func theGreetingTakesTheOutboxAndWatchesTheSharedChannels() {
    let bridge = MeshHarness()
    #expect(bridge.startDaemon().sent.isEmpty)
    #expect(bridge.greeting == ["BRIDGE host=desktop", "FORWARDS", "WATCH mail ci*"])
  }

  @Test func connectingSubscribesSendsTheMarkerAndSaysOnline() {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    let actions = bridge.startBroker()
    #expect(
      Array(actions.prefix(2)) == [
        .subscribe(["badged/ana/host/+/status", "badged/ana/host/+/ch/+/state", "badged/ana/ch/+/state"], qos: 0),
        .subscribe(
          ["badged/ana/ch/+/cmd", "badged/ana/host/+/reply/desktop", "badged/ana/host/desktop/sync"], qos: 1),
      ])
    #expect(actions.published.map(\.topic) == ["badged/ana/host/desktop/sync", "badged/ana/host/desktop/status"])
    #expect(actions.payloads(on: "badged/ana/host/desktop/status") == ["online"])
    #expect(actions.published.last?.retain == true && actions.published.first?.retain == false)
  }

  @Test func withoutItsDaemonTheMachineIsOffline() {
    let bridge = MeshHarness()
    #expect(bridge.startBroker().payloads(on: "badged/ana/host/desktop/status") == ["offline"])
    let ready = bridge.connectDaemon()
    #expect(ready.payloads(on: "badged/ana/host/desktop/status") == ["online"])
    #expect(bridge.daemonClosed().payloads(on: "badged/ana/host/desktop/status") == ["offline"])
  }

  @Test func sharedChannelsAreClaimedAndPublishedOnceTheRetainedStatesAreIn() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, total: 17, seq: 42)])
    let actions = bridge.connectBroker()
    let published = actions.published.filter { $0.topic == Self.mailState }
    #expect(published.count == 1)
    #expect(published.first?.retain == true)
    #expect(
      actions.payloads(on: Self.mailState) == [
        #"{"count":3,"label":"3","dot":false,"muted":false,"unseen":3,"total":17,"seq":42,"owner":"desktop","pulse":0,"claimed":1764620000000}"#
      ])
    #expect(bridge.core.ownedChannels == [name("mail")])
  }

  @Test func aChannelShareDoesNotNameIsNotPublished() {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    bridge.connectBroker()
    #expect(bridge.daemon(stateLine("EVENT", "news", count: 1, seq: 1)).published.isEmpty)
    #expect(
      bridge.daemon(stateLine("EVENT", "ci-nightly", count: 1, seq: 2)).payloads(
        on: "badged/ana/host/desktop/ch/ci-nightly/state"
      )
      .count == 1)
  }

  @Test func aBurstIsCoalescedAndItsLastStateGoesOut() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 0, seq: 1)])
    bridge.connectBroker()
    var published: [String] = []
    for count in 1...100 {
      published += bridge.daemon(stateLine("EVENT", "mail", count: count, seq: count + 1)).payloads(on: Self.mailState)
      published += bridge.advance(ms: 1).payloads(on: Self.mailState)
    }
    while let due = bridge.core.nextDeadline, due > bridge.time.monotonic {
      published += bridge.advance(ms: (due - bridge.time.monotonic) / 1000).payloads(on: Self.mailState)
    }
    // 100 changes over 100 ms, 50 ms after the snapshot's state went out: one per 50 ms,
    // the last one the latest.
    #expect(published.count == 2, "\(published)")
    #expect(published.first?.contains(#""count":50,"#) == true)
    #expect(published.last?.contains(#""count":100,"#) == true)
  }

  @Test func aRetainedClaimOfAnotherMachineStandsAndTheChannelIsMirroredInstead() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    let actions = bridge.connectBroker(retained: [
      ("badged/ana/host/laptop/ch/mail/state", statePayload("laptop", count: 5, seq: 9))
    ])
    #expect(actions.payloads(on: Self.mailState).isEmpty)
    #expect(
      actions.requests.contains(
        "MIRROR mail owner=laptop count=5 unseen=5 total=5 muted=0 dot=0 label=5 pulse=0 oseq=9"))
    #expect(
      bridge.logs.texts(atLeast: .notice) == [
        "mail is shared by laptop, which claimed it first; it is mirrored here instead."
      ])
    // Further changes here publish nothing and log nothing more.
    #expect(bridge.daemon(stateLine("EVENT", "mail", count: 4, seq: 43)).published.isEmpty)
    #expect(bridge.logs.texts(atLeast: .notice).count == 1)
  }

  @Test func ofTwoClaimsAtOnceTheEarlierWinsAndNothingFlipsBack() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.connectBroker()
    let ours: Int64 = 1_764_620_000_000
    // A later claim, on its claimant's own topic: dropped (this machine's state is on its own).
    let later = bridge.message(
      "badged/ana/host/laptop/ch/mail/state", statePayload("laptop", count: 9, claimed: ours + 1))
    #expect(later.isEmpty)
    // The same instant, a smaller host: the other claim wins, this machine gives way for good
    // and empties its own retained state.
    let earlier = bridge.message(
      "badged/ana/host/aaa/ch/mail/state", statePayload("aaa", count: 9, seq: 5, claimed: ours))
    #expect(earlier.payloads(on: Self.mailState) == [""])
    #expect(earlier.requests == ["MIRROR mail owner=aaa count=9 unseen=9 total=9 muted=0 dot=0 label=9 pulse=0 oseq=5"])
    #expect(
      bridge.logs.texts(atLeast: .notice).last == "mail was claimed earlier by aaa; giving way and mirroring it here.")
    #expect(bridge.daemon(stateLine("EVENT", "mail", count: 4, seq: 43)).published.isEmpty)
    #expect(bridge.message(Self.mailState, statePayload("desktop", count: 4, claimed: ours)).published.isEmpty)
    #expect(bridge.core.ownedChannels.isEmpty)
  }

  /// A state in this machine's name that it did not publish last (another client wrote it, or
  /// an earlier one came back late): its latest goes out again, coalesced; its own echo changes
  /// nothing.
  @Test func aStateWrittenInTheOwnersNameIsReplacedByItsOwn() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    let ours = bridge.connectBroker().payloads(on: Self.mailState)
    #expect(ours.count == 1)
    #expect(bridge.message(Self.mailState, ours[0]).published.isEmpty)
    let claimed = Int64(ours[0].split(separator: ":").last!.dropLast())!  // `"claimed":<ms>}`
    let forged = bridge.message(Self.mailState, statePayload("desktop", count: 99, seq: 1_000, claimed: claimed))
    #expect(forged.payloads(on: Self.mailState).isEmpty)  // within 50 ms of the last: waits
    #expect(forged.requests.isEmpty)
    #expect(bridge.advance(ms: 50).payloads(on: Self.mailState) == ours)
    #expect(bridge.message(Self.mailState, ours[0]).published.isEmpty)
  }

  @Test func aClaimFromBeforeARestartIsKept() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    let actions = bridge.connectBroker(retained: [
      (Self.mailState, statePayload("desktop", count: 2, claimed: 1_764_000_001_000))
    ])
    #expect(actions.payloads(on: Self.mailState).last?.hasSuffix(#""claimed":1764000001000}"#) == true)
  }

  @Test func aSharedChannelTheDaemonDidNotListIsLookedUp() {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    let actions = bridge.connectBroker(retained: [
      (Self.mailState, statePayload("desktop", count: 2, claimed: 1_764_000_001_000))
    ])
    #expect(actions.requests == ["WATCH mail"])
    let looked = bridge.daemon(stateLine("STATE", "mail", count: 0, seq: 0), "OK watching")
    #expect(
      looked.payloads(on: Self.mailState) == [statePayload("desktop", count: 0, seq: 0, claimed: 1_764_000_001_000)])
  }

  @Test func aChannelNoLongerSharedIsReleased() {
    let bridge = MeshHarness(meshConfig(share: "ci*", homeAssistant: true))
    bridge.connectDaemon()
    let actions = bridge.connectBroker(retained: [(Self.mailState, statePayload("desktop", count: 2))])
    #expect(actions.payloads(on: Self.mailState) == [""])
    #expect(actions.published.first { $0.topic == Self.mailState }?.retain == true)
    #expect(actions.payloads(on: "homeassistant/sensor/badged_ana_desktop_a3358fda/mail/config") == [""])
  }

  @Test func doNotDisturbNotSharedHasItsSwitchRemoved() {
    let bridge = MeshHarness(meshConfig(homeAssistant: true))
    bridge.connectDaemon()
    let dndSwitch = "homeassistant/switch/badged_ana_desktop_a3358fda/dnd/config"
    let actions = bridge.connectBroker()
    #expect(actions.payloads(on: dndSwitch) == [""])
    #expect(actions.published.first { $0.topic == dndSwitch }?.retain == true)
  }

  @Test func commandsAreCarriedOutAndAnswered() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.connectBroker()
    let reply = "badged/ana/host/desktop/reply/laptop"
    let carried = bridge.message(
      "badged/ana/ch/mail/cmd", #"{"op":"clear","upto":17,"id":"laptop:9f3a:41"}"#, responseTopic: reply,
      correlation: "laptop:9f3a:41")
    #expect(carried.requests == ["CLEAR mail upto=17 id=laptop:9f3a:41"])
    let answered = bridge.daemon(stateLine("STATE", "mail", count: 0, seq: 43), "OK")
    #expect(
      answered.published == [
        MeshMessage(
          topic: reply, payload: bytes(#"{"id":"laptop:9f3a:41","ok":true}"#), retain: false,
          correlation: bytes("laptop:9f3a:41"))
      ])

    // A writer that took another host for the owner: the answer still comes from this
    // machine's own subtree, the only one it may publish under.
    bridge.message(
      "badged/ana/ch/mail/cmd", #"{"op":"incr","n":2147483647,"id":"laptop:9f3a:42"}"#,
      responseTopic: "badged/ana/host/nas/reply/laptop", correlation: "laptop:9f3a:42")
    let refused = bridge.daemon("ERR out-of-range the count would pass 2147483647")
    #expect(
      refused.payloads(on: reply) == [
        #"{"id":"laptop:9f3a:42","ok":false,"error":"out-of-range the count would pass 2147483647"}"#
      ])
  }

  @Test func commandsForChannelsOwnedElsewhereOrWithoutADaemonAreLeftAlone() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.connectBroker()
    #expect(bridge.message("badged/ana/ch/news/cmd", #"{"op":"incr","id":"l:1:1"}"#).isEmpty)
    bridge.daemonClosed()
    #expect(bridge.message("badged/ana/ch/mail/cmd", #"{"op":"incr","id":"l:1:2"}"#).isEmpty)
  }

  @Test func anAnswerGoesOnlyToAHostsReplyTopic() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.connectBroker()
    bridge.message("badged/ana/ch/mail/cmd", #"{"op":"incr","id":"l:1:1"}"#, responseTopic: "badged/ana/ch/mail/state")
    #expect(bridge.daemon("OK").published.isEmpty)
  }

  @Test func commandsThatComeBeforeTheRetainedStatesWaitForThem() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    let marker = bridge.startBroker().published.first { $0.topic.hasSuffix("/sync") }!.payload
    // Queued for this machine's session while it was away: delivered before the states.
    #expect(bridge.message("badged/ana/ch/mail/cmd", #"{"op":"incr","id":"l:1:1"}"#).isEmpty)
    let synced = bridge.message("badged/ana/host/desktop/sync", String(decoding: marker, as: UTF8.self))
    #expect(synced.requests == ["INCR mail 1 id=l:1:1"])
  }

  @Test func aLostSyncMarkerIsWaitedForTenSeconds() {
    let bridge = MeshHarness()
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.startBroker()
    #expect(bridge.advance(ms: 9_999).published.isEmpty)
    #expect(bridge.advance(ms: 1).payloads(on: Self.mailState).count == 1)
    #expect(
      bridge.logs.texts(atLeast: .warning).first?.hasPrefix(
        "The sync marker on badged/ana/host/desktop/sync did not come back") == true)
  }

  @Test func homeAssistantGetsASensorPerOwnedChannelAndAgainWhenItStarts() {
    let bridge = MeshHarness(meshConfig(dnd: .shared, homeAssistant: true))
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    let sensor = "homeassistant/sensor/badged_ana_desktop_a3358fda/mail/config"
    let dndSwitch = "homeassistant/switch/badged_ana_desktop_a3358fda/dnd/config"
    let actions = bridge.connectBroker()
    #expect(actions.payloads(on: sensor).count == 1)
    #expect(actions.payloads(on: dndSwitch).count == 1)
    #expect(bridge.daemon(stateLine("EVENT", "mail", count: 4, seq: 43)).payloads(on: sensor).isEmpty)
    // The state only, once its coalescing window is over.
    let state = bridge.advance(ms: 50)
    #expect(state.payloads(on: Self.mailState).count == 1 && state.payloads(on: sensor).isEmpty)
    // Home Assistant started: the configs again, after this machine's delay (418 ms for
    // `badged_ana_desktop_a3358fda`), once however often it says so meanwhile.
    #expect(bridge.message("homeassistant/status", "online").isEmpty)
    #expect(bridge.core.nextDeadline == bridge.time.monotonic + 418_000)
    #expect(bridge.advance(ms: 417).isEmpty)
    #expect(bridge.message("homeassistant/status", "online").isEmpty)
    let restarted = bridge.advance(ms: 1)
    #expect(restarted.payloads(on: sensor).count == 1 && restarted.payloads(on: dndSwitch).count == 1)
    #expect(bridge.message("homeassistant/status", "offline").isEmpty)
    #expect(bridge.advance(ms: 1000).isEmpty)
  }

  @Test func ourOwnLastWillHeardLateIsAnsweredWithOnline() {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    bridge.connectBroker()
    #expect(
      bridge.message("badged/ana/host/desktop/status", "offline").payloads(on: "badged/ana/host/desktop/status") == [
        "online"
      ])
    #expect(bridge.message("badged/ana/host/desktop/status", "online").isEmpty)
  }

  @Test func aDaemonThatRefusesTheBridgeIsLeftAndTriedAgain() {
    let bridge = MeshHarness()
    bridge.startDaemon()
    #expect(
      bridge.daemon("ERR bridge-taken another bridge is connected") == [
        .closeDaemon(reason: "badged refused the bridge: bridge-taken another bridge is connected")
      ])
  }

  @Test func theStatusGoesToTheDaemonAndTheServiceManager() {
    let bridge = MeshHarness()
    let ready = bridge.connectDaemon()
    #expect(ready.sent.last == "BRIDGE status connected=0 broker=mqtts://broker.lan:8883 pending=0")
    #expect(ready.last == .status("Not connected to mqtts://broker.lan:8883; sharing 0, mirroring 0, 0 writes waiting"))
    let connected = bridge.connectBroker()
    #expect(connected.sent.last == "BRIDGE status connected=1 broker=mqtts://broker.lan:8883 pending=0")
    #expect(
      bridge.brokerDown(error: "Connection refused").sent.last
        == "BRIDGE status connected=0 broker=mqtts://broker.lan:8883 pending=0 error=Connection refused")
  }
}
