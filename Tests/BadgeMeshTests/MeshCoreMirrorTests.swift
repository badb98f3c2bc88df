import BadgeCore
import BadgeMesh
import Testing

/// The bridge as a mirror: other owners' states into the daemon, their staleness, and the
/// delivery of forwarded writes until their owners answer.
@Suite struct MeshCoreMirrorTests {
  static let newsState = "badged/ana/host/nas/ch/news/state"

  static func ready() -> MeshHarness {
    let bridge = MeshHarness()
    bridge.connectDaemon()
    bridge.connectBroker()
    return bridge
  }

  @Test func anOwnersStateIsMirroredOnceAndForgottenWhenReleased() {
    let bridge = Self.ready()
    let first = bridge.message(Self.newsState, statePayload("nas", count: 4, total: 9, seq: 3))
    #expect(first.requests == ["MIRROR news owner=nas count=4 unseen=4 total=9 muted=0 dot=0 label=4 pulse=0 oseq=3"])
    #expect(bridge.message(Self.newsState, statePayload("nas", count: 4, total: 9, seq: 3)).isEmpty)
    #expect(bridge.message(Self.newsState, "").requests == ["MIRROR news forget"])
    #expect(bridge.logs.texts(atLeast: .info).contains("nas stopped sharing news."))
    #expect(bridge.core.mirroredChannels.isEmpty)
  }

  @Test func aStateNamingALaterClaimantIsDropped() {
    let bridge = Self.ready()
    bridge.message(Self.newsState, statePayload("nas", count: 4, claimed: 1_764_000_000_100))
    #expect(
      bridge.message(
        "badged/ana/host/laptop/ch/news/state", statePayload("laptop", count: 0, claimed: 1_764_000_000_200)
      )
      .isEmpty)
    #expect(bridge.logs.lines.last?.text == "Dropped a state of news naming laptop: nas claimed it first.")
    #expect(bridge.logs.lines.last?.level == .debug)
  }

  @Test func channelsMirrorDoesNotNameAreNotShown() {
    let bridge = MeshHarness(meshConfig(mirror: "ci*"))
    bridge.connectDaemon()
    bridge.connectBroker()
    #expect(bridge.message(Self.newsState, statePayload("nas", count: 4)).isEmpty)
    #expect(bridge.message("badged/ana/host/nas/ch/ci-arm/state", statePayload("nas", count: 4)).requests.count == 1)
  }

  @Test func aLocalChannelThatHidesAMirrorIsLoggedOnce() {
    let bridge = Self.ready()
    bridge.message(Self.newsState, statePayload("nas", count: 4))
    bridge.daemon("ERR local-channel news is a channel of this machine")
    bridge.message(Self.newsState, statePayload("nas", count: 5))
    bridge.daemon("ERR local-channel news is a channel of this machine")
    #expect(
      bridge.logs.texts(atLeast: .notice) == [
        "Not showing news from nas here: local-channel news is a channel of this machine."
      ])
  }

  @Test func mirrorsAndStalenessAreToldToADaemonThatComesBack() {
    let bridge = MeshHarness()
    bridge.connectBroker(retained: [
      (Self.newsState, statePayload("nas", count: 4, seq: 3)), ("badged/ana/host/nas/status", "online"),
    ])
    let ready = bridge.connectDaemon()
    #expect(
      ready.requests.contains("MIRROR news owner=nas count=4 unseen=4 total=4 muted=0 dot=0 label=4 pulse=0 oseq=3"))
    #expect(ready.requests.contains("STALE nas 0"))
  }

  @Test func anOwnerGoingAndComingIsStaleThenNot() {
    let bridge = Self.ready()
    bridge.message(Self.newsState, statePayload("nas", count: 4))
    #expect(bridge.message("badged/ana/host/nas/status", "online").requests == ["STALE nas 0"])
    bridge.time.wallMs += 60_000
    #expect(bridge.message("badged/ana/host/nas/status", "offline").requests == ["STALE nas 1 since=1764620000"])
    #expect(bridge.message("badged/ana/host/nas/status", "offline").isEmpty)
    #expect(bridge.message("badged/ana/host/nas/status", "online").requests == ["STALE nas 0"])
    #expect(bridge.message("badged/ana/host/nas/status", "maybe").isEmpty)
  }

  @Test func losingTheBrokerMakesEveryOwnerStale() {
    let bridge = Self.ready()
    bridge.message("badged/ana/host/nas/status", "online")
    bridge.message("badged/ana/host/laptop/status", "online")
    // An owner known only from its states (no status yet) goes stale too.
    bridge.message("badged/ana/host/pi/ch/news/state", statePayload("pi", count: 1))
    #expect(
      bridge.brokerDown(error: "keepalive timeout").requests == [
        "STALE laptop 1 since=1764620000", "STALE nas 1 since=1764620000", "STALE pi 1 since=1764620000",
      ])
    let back = bridge.connectBroker(retained: [("badged/ana/host/nas/status", "online")])
    #expect(back.requests == ["STALE nas 0"])
  }

  @Test func forwardedWritesGoToTheirOwnersAndAreDeliveredWhenAnswered() {
    let bridge = MeshHarness()
    let ready = bridge.connectDaemon(forwards: ["FORWARD desktop:ab:1 CLEAR news upto=9 id=desktop:ab:1"])
    #expect(ready.published.isEmpty)
    let connected = bridge.connectBroker(retained: [
      (Self.newsState, statePayload("nas", count: 4)),
      ("badged/ana/host/laptop/ch/mail/state", statePayload("laptop", count: 1)),
    ])
    let command = connected.published.first { $0.topic == "badged/ana/ch/news/cmd" }
    #expect(
      command
        == MeshMessage(
          topic: "badged/ana/ch/news/cmd", payload: bytes(#"{"op":"clear","upto":9,"id":"desktop:ab:1"}"#),
          retain: false,
          responseTopic: "badged/ana/host/nas/reply/desktop", correlation: bytes("desktop:ab:1")))
    // A new write of another channel goes out at once; one of the same channel once the one
    // before it is answered.
    let pushed = bridge.daemon(
      "FORWARD desktop:ab:2 INCR news 2 id=desktop:ab:2", "FORWARD desktop:ab:3 MUTE mail id=desktop:ab:3")
    #expect(pushed.payloads(on: "badged/ana/ch/news/cmd").isEmpty)
    #expect(pushed.payloads(on: "badged/ana/ch/mail/cmd") == [#"{"op":"mute","id":"desktop:ab:3"}"#])
    #expect(bridge.core.pendingWrites == 3)
    // The pending count reaches the daemon, at most once a second.
    #expect(bridge.advance(ms: 999).sent.isEmpty)
    #expect(bridge.advance(ms: 1).sent == ["BRIDGE status connected=1 broker=mqtts://broker.lan:8883 pending=3"])
    let answered = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:1","ok":true}"#, correlation: "desktop:ab:1")
    #expect(answered.requests == ["DELIVERED desktop:ab:1"])
    #expect(answered.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"incr","n":2,"id":"desktop:ab:2"}"#])
    bridge.daemon("OK")
    // (The answer of an owner comes only from its own subtree.)
    bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:3","ok":true}"#, correlation: "desktop:ab:3")
    #expect(bridge.core.pendingWrites == 2)
    bridge.message(
      "badged/ana/host/laptop/reply/desktop", #"{"id":"desktop:ab:3","ok":true}"#, correlation: "desktop:ab:3")
    bridge.daemon("OK")
    #expect(bridge.core.pendingWrites == 1)
    #expect(bridge.advance(ms: 1000).sent == ["BRIDGE status connected=1 broker=mqtts://broker.lan:8883 pending=1"])
  }

  /// A long outbox takes several turns to read: the owner answers its first writes before the
  /// listing and the watch's snapshot are in. Each answer still reaches the daemon, or its
  /// write would stay there with nothing here to send it again.
  @Test func anAnswerThatComesWhileTheGreetingIsReadIsDelivered() {
    let bridge = MeshHarness()
    bridge.connectBroker(retained: [(Self.newsState, statePayload("nas", count: 1))])
    bridge.startDaemon()
    bridge.daemon("OK")
    let listed = bridge.daemon("FORWARD desktop:ab:1 INCR news id=desktop:ab:1")
    #expect(listed.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"incr","n":1,"id":"desktop:ab:1"}"#])
    let answered = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:1","ok":true}"#, correlation: "desktop:ab:1")
    #expect(answered.requests == ["DELIVERED desktop:ab:1"])
    bridge.daemon("FORWARD desktop:ab:2 INCR news id=desktop:ab:2", "OK")
    let snapshotAnswer = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:2","ok":true}"#, correlation: "desktop:ab:2")
    #expect(snapshotAnswer.requests == ["DELIVERED desktop:ab:2"])
    #expect(bridge.core.pendingWrites == 0)
    #expect(!bridge.core.isDaemonReady)
  }

  @Test func aRefusalIsLoggedAndDeliveredAFailureIsSentAgain() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: [
      "FORWARD desktop:ab:1 INCR news id=desktop:ab:1", "FORWARD desktop:ab:2 SET news 5 id=desktop:ab:2",
    ])
    bridge.connectBroker(retained: [(Self.newsState, statePayload("nas", count: 4))])
    let refused = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:1","ok":false,"error":"full too many channels"}"#,
      correlation: "desktop:ab:1")
    #expect(refused.requests == ["DELIVERED desktop:ab:1"])
    #expect(
      bridge.logs.texts(atLeast: .notice) == ["nas refused incr on news: full too many channels; its state stands."])
    let failed = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:2","ok":false,"error":"failed disk full"}"#,
      correlation: "desktop:ab:2")
    #expect(failed.isEmpty)
    let again = bridge.advance(ms: 30_000)
    #expect(again.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"set","n":5,"id":"desktop:ab:2"}"#])
  }

  @Test func answersThatMatchNothingOrLieAboutTheirIdAreDropped() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: ["FORWARD desktop:ab:1 INCR news id=desktop:ab:1"])
    bridge.connectBroker(retained: [(Self.newsState, statePayload("nas", count: 4))])
    #expect(
      bridge.message(
        "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:9","ok":true}"#, correlation: "desktop:ab:9"
      )
      .isEmpty)
    #expect(
      bridge.message(
        "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:1","ok":true}"#, correlation: "desktop:ab:2"
      )
      .isEmpty)
    #expect(bridge.message("badged/ana/host/nas/reply/desktop", #"{"ok":"yes"}"#, correlation: "desktop:ab:1").isEmpty)
    #expect(bridge.core.pendingWrites == 1)
  }

  @Test func anOwnerBackOnlineGetsItsUnansweredWritesAgainInOrder() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: [
      "FORWARD desktop:ab:1 INCR news id=desktop:ab:1", "FORWARD desktop:ab:2 CLEAR mail id=desktop:ab:2",
      "FORWARD desktop:ab:3 CLEAR news upto=5 id=desktop:ab:3",
    ])
    bridge.connectBroker(retained: [
      (Self.newsState, statePayload("nas", count: 4)),
      ("badged/ana/host/laptop/ch/mail/state", statePayload("laptop", count: 1)),
      ("badged/ana/host/nas/status", "offline"),
    ])
    let back = bridge.message("badged/ana/host/nas/status", "online")
    #expect(back.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"incr","n":1,"id":"desktop:ab:1"}"#])
    #expect(back.payloads(on: "badged/ana/ch/mail/cmd").isEmpty)
    let answered = bridge.message(
      "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:1","ok":true}"#, correlation: "desktop:ab:1")
    #expect(answered.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"clear","upto":5,"id":"desktop:ab:3"}"#])
  }

  /// The broker restarted without its sessions, and the owner subscribed anew part way through
  /// a burst, after the increase: had the clear gone out with it, the owner would have cleared
  /// before the increase came again. The clear goes only once the increase is answered.
  @Test func anOwnerThatMissedAWriteGetsItBeforeTheNextOfItsChannel() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: [
      "FORWARD desktop:ab:1 INCR news 3 id=desktop:ab:1", "FORWARD desktop:ab:2 CLEAR news upto=4 id=desktop:ab:2",
      "FORWARD desktop:ab:3 INCR news id=desktop:ab:3",
    ])
    let first = bridge.connectBroker(retained: [(Self.newsState, statePayload("nas", count: 1))])
    #expect(first.payloads(on: "badged/ana/ch/news/cmd") == [#"{"op":"incr","n":3,"id":"desktop:ab:1"}"#])
    #expect(
      bridge.message("badged/ana/host/nas/status", "online").payloads(on: "badged/ana/ch/news/cmd") == [
        #"{"op":"incr","n":3,"id":"desktop:ab:1"}"#
      ])
    var sent: [String] = []
    for id in 1...3 {
      sent += bridge.message(
        "badged/ana/host/nas/reply/desktop", #"{"id":"desktop:ab:\#(id)","ok":true}"#, correlation: "desktop:ab:\(id)"
      ).payloads(on: "badged/ana/ch/news/cmd")
      bridge.daemon("OK")
    }
    #expect(sent == [#"{"op":"clear","upto":4,"id":"desktop:ab:2"}"#, #"{"op":"incr","n":1,"id":"desktop:ab:3"}"#])
    #expect(bridge.core.pendingWrites == 0)
  }

  /// The broker restarted without persistence and this machine was back on it first: what it
  /// sent then went nowhere. The owner's first state on the new connection, and its saying
  /// online again though it never seemed gone, each send the channel's first write at once.
  @Test func anOwnerHeardAnewOnAConnectionGetsItsWritesAtOnce() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: ["FORWARD desktop:ab:1 INCR news id=desktop:ab:1"])
    bridge.connectBroker(retained: [
      (Self.newsState, statePayload("nas", count: 4)), ("badged/ana/host/nas/status", "online"),
    ])
    bridge.brokerDown()
    let incr = #"{"op":"incr","n":1,"id":"desktop:ab:1"}"#
    #expect(bridge.connectBroker().payloads(on: "badged/ana/ch/news/cmd") == [incr])
    #expect(
      bridge.message(Self.newsState, statePayload("nas", count: 4)).payloads(on: "badged/ana/ch/news/cmd") == [incr])
    #expect(bridge.message(Self.newsState, statePayload("nas", count: 4)).isEmpty, "once per connection")
    let online = bridge.message("badged/ana/host/nas/status", "online")
    #expect(online.payloads(on: "badged/ana/ch/news/cmd") == [incr])
    #expect(bridge.message("badged/ana/host/nas/status", "online").payloads(on: "badged/ana/ch/news/cmd") == [incr])
  }

  @Test func aReconnectionSendsEveryUnansweredWriteAgain() {
    let bridge = MeshHarness()
    bridge.connectDaemon(forwards: [
      "FORWARD desktop:ab:1 PULSE news 2000", "FORWARD desktop:ab:2 MUTE mail id=desktop:ab:2",
    ])
    bridge.connectBroker()
    bridge.brokerDown()
    let again = bridge.connectBroker().published.filter { $0.topic.hasSuffix("/cmd") }
    #expect(
      again.map { String(decoding: $0.payload, as: UTF8.self) } == [
        #"{"op":"pulse","ms":2000,"id":"desktop:ab:1"}"#, #"{"op":"mute","id":"desktop:ab:2"}"#,
      ])
    // A pulse that comes late is pointless: it expires with its window.
    #expect(again.map(\.expirySeconds) == [2, nil])
  }

  @Test func anUnreadableForwardIsReportedAndStaysWithTheDaemon() {
    let bridge = Self.ready()
    #expect(bridge.daemon("FORWARD desktop:ab:1 CONFIGURE news style=dot").isEmpty)
    #expect(
      bridge.logs.texts(atLeast: .warning) == [
        "Cannot deliver the forwarded write 'desktop:ab:1 CONFIGURE news style=dot': this badged-mqtt does not "
          + "know it; it stays in badged's outbox."
      ])
  }
}
