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
    ("badged/ana/host/nas/ch/mail/state", #"{"count":1}"#), ("badged/ana/host/nas/ch/news/state", "\u{0}\u{1}"),
    ("badged/ana/ch/m@il/cmd", #"{"op":"incr"}"#), ("badged/ana/ch/a%2fb/state", statePayload("nas", count: 1)),
    ("badged/ana/host/nas/reply/desktop", "{"), ("badged/ana/host/laptop/dnd", #"{"on":"yes"}"#),
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

  /// States that cannot count, each refused with its reason once per topic: one in another
  /// host's name, claims no machine could have made, the old layout; and a later claim, dropped.
  @Test func aForgedOwnerCannotTakeAChannelOver() {
    let bridge = Self.ready()
    bridge.logs.removeAll()
    let laptops = "badged/ana/host/laptop/ch/mail/state"
    let forged = [
      (laptops, statePayload("desktop", count: 99, claimed: 1_764_000_000_000)),
      ("badged/ana/host/evil/ch/mail/state", statePayload("laptop", count: 99, claimed: 1_764_000_000_000)),
      ("badged/ana/host/evil/ch/mail/state", statePayload("desktop", count: 99, claimed: 1_764_000_000_000)),
      ("badged/ana/host/nas/ch/mail/state", statePayload("nas", count: 99, claimed: 1)),
      ("badged/ana/host/server/ch/mail/state", statePayload("server", count: 99, claimed: 1_764_706_400_001)),
      ("badged/ana/ch/mail/state", statePayload("evil", count: 99, claimed: 1)),
      (laptops, statePayload("laptop", count: 99, claimed: 1_764_620_000_001)),
    ]
    for (topic, payload) in forged { #expect(bridge.message(topic, payload).isEmpty, "\(topic) \(payload)") }
    #expect(bridge.core.ownedChannels == [name("mail")] && bridge.core.mirroredChannels.isEmpty)
    #expect(
      bridge.logs.texts(atLeast: .notice) == [
        "Refused the state on badged/ana/host/laptop/ch/mail/state: it names desktop as the owner, and only desktop "
          + "may publish that.",
        "Refused the state on badged/ana/host/evil/ch/mail/state: it names laptop as the owner, and only laptop may "
          + "publish that.",
        "Refused the state on badged/ana/host/nas/ch/mail/state: its claim (1) is before 2024-01-01.",
        "Refused the state on badged/ana/host/server/ch/mail/state: its claim (1764706400001) is more than a day "
          + "ahead of this machine's clock.",
        "Refused the state on badged/ana/ch/mail/state: the old layout, from a bridge of badged 0.1; upgrade that "
          + "machine's badged.",
      ])
    #expect(
      bridge.logs.lines.last?.text == "Dropped a state of mail naming laptop: desktop claimed it first.")
    // Said once per topic: again, it is a debug line.
    bridge.logs.removeAll()
    #expect(bridge.message(laptops, statePayload("desktop", count: 99)).isEmpty)
    #expect(bridge.logs.lines.map(\.level) == [.debug])
  }

  @Test func anEmptiedRetainedStateReleasesOnlyFromItsOwnersSubtree() {
    let bridge = Self.ready()
    let ours = "badged/ana/host/desktop/ch/mail/state"
    #expect(bridge.message(ours, "").payloads(on: ours).count == 1)
    #expect(bridge.message("badged/ana/host/nas/ch/news/state", statePayload("nas", count: 2)).requests.count == 1)
    #expect(bridge.message("badged/ana/host/laptop/ch/news/state", "").isEmpty)
    #expect(bridge.core.mirroredChannels == [name("news")])
    #expect(bridge.message("badged/ana/host/nas/ch/news/state", "").requests == ["MIRROR news forget"])
    #expect(bridge.core.mirroredChannels.isEmpty)
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
          topic: "badged/ana/host/h\(index % MeshLimits.maxHosts)/ch/c\(index)/state",
          payload: bytes(statePayload("h\(index % MeshLimits.maxHosts)", count: 1))),
        at: bridge.time)
    }
    _ = bridge.core.takeActions()
    bridge.logs.removeAll()
    #expect(bridge.message("badged/ana/host/h1/ch/one-more/state", statePayload("h1", count: 1)).isEmpty)
    #expect(
      bridge.logs.lines.last?.text == "Dropped a state of one-more: 10000 channels or 1000 hosts are known already.")
    // Known channels and hosts still change.
    #expect(bridge.message("badged/ana/host/h5/ch/c5/state", "").isEmpty)
    #expect(bridge.logs.lines.last?.text == "h5 stopped sharing c5.")
    #expect(bridge.message("badged/ana/host/new-host/status", "online").isEmpty)
    #expect(bridge.logs.lines.last?.text == "Dropped a status of new-host: 1000 hosts are known already.")
  }
}
