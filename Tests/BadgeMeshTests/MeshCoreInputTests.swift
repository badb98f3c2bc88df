import BadgeCore
import BadgeMesh
import Testing

/// Untrusted input: junk on every topic changes nothing and asks for nothing.
@Suite struct MeshCoreInputTests {
  static func ready() -> MeshHarness {
    let bridge = MeshHarness(meshConfig(dnd: .shared, homeAssistant: true))
    bridge.connectDaemon(snapshot: [stateLine("STATE", "mail", count: 3, seq: 42)])
    bridge.connectBroker()
    return bridge
  }

  @Test(arguments: [
    ("badged/ana/ch/mail/cmd", "not json"), ("badged/ana/ch/mail/cmd", #"{"op":"explode","id":"a:1:1"}"#),
    ("badged/ana/ch/mail/cmd", #"{"op":"incr","n":-5}"#), ("badged/ana/ch/mail/cmd", #"["op","incr"]"#),
    ("badged/ana/ch/mail/state", #"{"count":1}"#), ("badged/ana/ch/news/state", "\u{0}\u{1}"),
    ("badged/ana/ch/m@il/cmd", #"{"op":"incr"}"#), ("badged/ana/ch/a%2fb/state", statePayload("nas", count: 1)),
    ("badged/ana/host/desktop/reply", "{"), ("badged/ana/host/laptop/dnd", #"{"on":"yes"}"#),
    ("badged/ana/dnd/set", "maybe"),
    ("badged/ana/host/x y/status", "online"), ("elsewhere/topic", "x"), ("badged/ana/host/desktop/sync", "0-0"),
  ])
  func junkChangesNothing(topic: String, payload: String) {
    let bridge = Self.ready()
    bridge.logs.removeAll()
    #expect(bridge.message(topic, payload).isEmpty)
    #expect(bridge.logs.lines.allSatisfy { $0.level == .debug })
    #expect(bridge.core.ownedChannels == [name("mail")] && bridge.core.mirroredChannels.isEmpty)
  }

  @Test func aHugePayloadIsDroppedUnread() {
    let bridge = Self.ready()
    let huge = #"{"op":"incr","id":"a:1:1","pad":""# + String(repeating: "x", count: 1 << 20) + "\"}"
    #expect(bridge.message("badged/ana/ch/mail/cmd", huge).isEmpty)
    #expect(bridge.logs.lines.last?.text == "Dropped a message of 1048611 bytes on badged/ana/ch/mail/cmd: over 4096.")
  }

  @Test func theCoreLogsByReturningTheLineNotByWritingIt() {
    let core = MeshCore(config: meshConfig())
    core.brokerMessage(IncomingMessage(topic: "elsewhere/topic", payload: bytes("x")), at: MeshHarness().time)
    #expect(
      core.takeActions() == [.log(.debug, "Dropped a message on elsewhere/topic: not a topic of this bridge.", [])])
    #expect(core.takeActions().isEmpty)
  }

  @Test func aForgedOwnerCannotTakeAChannelOver() {
    let bridge = Self.ready()
    let forged = bridge.message(
      "badged/ana/ch/mail/state", statePayload("mallory", count: 0, claimed: 1_764_620_000_001))
    // Dropped, and the retained state is made to name the owner again.
    #expect(forged.requests.isEmpty)
    #expect(forged.payloads(on: "badged/ana/ch/mail/state").first?.contains(#""owner":"desktop""#) == true)
  }

  @Test func anEmptiedRetainedStateOfOursIsPublishedAgain() {
    let bridge = Self.ready()
    #expect(bridge.message("badged/ana/ch/mail/state", "").payloads(on: "badged/ana/ch/mail/state").count == 1)
  }
}

/// What the broker's retained states can make the bridge hold is bounded.
@Suite struct MeshCoreBoundsTests {
  @Test func channelsAndHostsPastTheirLimitsAreDropped() {
    let bridge = MeshHarness(meshConfig(share: "mail", mirror: ""))
    bridge.connectDaemon()
    bridge.connectBroker()
    for index in 0..<MeshLimits.maxChannels {
      bridge.core.brokerMessage(
        IncomingMessage(
          topic: "badged/ana/ch/c\(index)/state",
          payload: bytes(statePayload("h\(index % MeshLimits.maxHosts)", count: 1))),
        at: bridge.time)
    }
    _ = bridge.core.takeActions()
    bridge.logs.removeAll()
    #expect(bridge.message("badged/ana/ch/one-more/state", statePayload("h1", count: 1)).isEmpty)
    #expect(
      bridge.logs.lines.last?.text == "Dropped a state of one-more: 10000 channels or 1000 hosts are known already.")
    // Known channels and hosts still change.
    #expect(bridge.message("badged/ana/ch/c5/state", "").isEmpty)
    #expect(bridge.logs.lines.last?.text == "h5 stopped sharing c5.")
    #expect(bridge.message("badged/ana/host/new-host/status", "online").isEmpty)
    #expect(bridge.logs.lines.last?.text == "Dropped a status of new-host: 1000 hosts are known already.")
  }
}
