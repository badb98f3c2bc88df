import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeProtocol

/// libFuzzer target: bytes from the broker, as badged-mqtt decodes them. The first byte picks
/// the topic the rest arrives on (a channel's state or commands, an answer, a host's status,
/// do-not-disturb, the sync marker, Home Assistant's status, or a topic made of the bytes
/// themselves), and the message goes through a `MeshCore` that owns `mail` and is connected to
/// its daemon and the broker, as in the running bridge.
///
/// Checked beyond "never crashes": whatever a decoder accepts, encodes and decodes back to
/// itself; a payload over the limit changes nothing; and the daemon is never sent a line with
/// a line break (one message, at most one line per request).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMQTT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let payload = Array(bytes.dropFirst())
  checkRoundTrips(payload)
  let topics = [
    "badged/ana/host/desktop/ch/mail/state", "badged/ana/host/nas/ch/news/state", "badged/ana/ch/mail/cmd",
    "badged/ana/host/nas/reply/desktop", "badged/ana/host/nas/status", "badged/ana/host/laptop/dnd",
    "badged/ana/dnd/set",
    "badged/ana/host/desktop/sync", "homeassistant/status", "badged/ana/ch/mail/state",
    "badged/ana/host/laptop/ch/mail/state",
  ]
  let choice = Int(bytes[0])
  let topic = choice < topics.count ? topics[choice] : String(decoding: payload.prefix(64), as: UTF8.self)
  let core = FuzzBridge.ready()
  let message = IncomingMessage(
    topic: topic, payload: payload, responseTopic: choice % 2 == 0 ? "badged/ana/host/desktop/reply/laptop" : nil,
    correlation: Array(payload.prefix(16)))
  core.brokerMessage(message, at: FuzzBridge.time)
  let answered = core.takeActions()
  // A payload over the limit is dropped with a log line and does nothing else.
  let acted = answered.contains { action in
    if case .log = action { return false }
    return true
  }
  precondition(payload.count <= MeshLimits.maxPayloadBytes || !acted, "a payload over the limit did something")
  core.tick(at: FuzzBridge.later)
  for action in answered + core.takeActions() {
    if case .request(let request) = action {
      let line = RequestEncoder.line(request.request, id: request.id)
      precondition(!line.contains(where: \.isNewline), "a request with a line break: \(line)")
    }
  }
  return 0
}

/// Whatever each decoder accepts comes back the same through its encoder.
private func checkRoundTrips(_ payload: [UInt8]) {
  if let value = try? JSONValue.parse(payload, maxBytes: MeshLimits.maxPayloadBytes) {
    precondition((try? JSONValue.parse(Array(value.encoded.utf8), maxBytes: Int.max)) == value, "JSON round trip")
  }
  if let state = try? ChannelState(payload: payload) {
    precondition((try? ChannelState(payload: state.payload)) == state, "state round trip")
  }
  if let command = try? ChannelCommand(payload: payload) {
    precondition((try? ChannelCommand(payload: command.payload)) == command, "command round trip")
  }
  if let answer = try? CommandAnswer(payload: payload) {
    precondition((try? CommandAnswer(payload: answer.payload)) == answer, "answer round trip")
  }
  if let dnd = try? DNDState(payload: payload) {
    precondition((try? DNDState(payload: dnd.payload)) == dnd, "do-not-disturb round trip")
  }
  let text = String(decoding: payload, as: UTF8.self)
  if let unescaped = TopicLevel.unescape(Substring(text)) {
    precondition(TopicLevel.escape(unescaped) == text, "topic level round trip")
  }
  switch ReplyLine(text) {
  case .state(let snapshot), .event(let snapshot): _ = DaemonLink.localState(snapshot)
  case .dnd(let dnd, _): _ = DaemonLink.localDND(dnd)
  default: break
  }
}

/// A core as the running bridge has it: desktop, owning `mail`, mirroring `news` from nas,
/// one forwarded write waiting, do-not-disturb shared, Home Assistant on.
private enum FuzzBridge {
  static let time = MeshTime(monotonic: 5_000_000, wallMs: 1_764_620_000_000)
  static let later = MeshTime(monotonic: 60_000_000, wallMs: 1_764_620_055_000)

  static func ready() -> MeshCore {
    var config = MeshConfig(
      broker: BrokerAddress(tls: true, host: "b", port: 8883), host: "desktop", prefix: "badged/ana")
    config.share = [ChannelPattern("mail")!]
    config.dnd = .shared
    config.homeAssistant = true
    let core = MeshCore(config: config)
    // The daemon's lines as the bridge's connection decodes them (`DaemonClient`).
    var session = ClientSession<DaemonRequest>(
      limit: 64, firstRequests: core.daemonFirstRequests.map { .init($0.request, id: $0.id, ticket: $0) })
    if let patterns = core.daemonWatchPatterns { session.watch(patterns) }
    session.connected()
    core.daemonConnected(at: time)
    for line in [
      "OK", "FORWARD desktop:1:1 CLEAR news upto=3 id=desktop:1:1", "OK", "STATE * dnd=0 left=0",
      "STATE mail count=2 label=2 dot=0 pulse=0 muted=0 seq=5 badge=count dnd=off unseen=2 total=9", "OK watching",
    ] {
      switch session.receive(ReplyLine(line)) {
      case .reply(let request, let line)?: core.daemonReplied(request, line, at: time)
      case let delivery?: core.daemonReceived(delivery, at: time)
      case nil: break
      }
    }
    core.brokerConnected(at: time)
    let marker = core.takeActions().compactMap { action -> [UInt8]? in
      if case .publish(let message) = action, message.topic.hasSuffix("/sync") { return message.payload }
      return nil
    }
    core.brokerMessage(
      IncomingMessage(
        topic: "badged/ana/host/nas/ch/news/state",
        payload: Array(
          #"{"count":3,"label":"3","dot":false,"muted":false,"unseen":3,"total":3,"seq":1,"owner":"nas","pulse":0,"claimed":1764000000007}"#
            .utf8)),
      at: time)
    core.brokerMessage(IncomingMessage(topic: "badged/ana/host/desktop/sync", payload: marker.last ?? []), at: time)
    _ = core.takeActions()
    return core
  }
}
