import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeProtocol

/// A `MeshCore` driven by hand: lines from the daemon, messages from the broker, and time,
/// each returning the actions they caused.
final class MeshHarness {
  let core: MeshCore
  let logs = KeptLines()
  private let logger: Logger
  var time = MeshTime(monotonic: 5_000_000, wallMs: 1_764_620_000_000)
  /// The requests the connection wrote that the test has not answered yet, oldest first.
  private var unanswered: [String] = []
  private var wire: DaemonWire
  /// What the connection wrote first when it last came up.
  private(set) var greeting: [String] = []

  init(_ config: MeshConfig = meshConfig()) {
    core = MeshCore(config: config)
    wire = DaemonWire(firstRequests: core.daemonFirstRequests, watch: core.daemonWatchPatterns)
    logger = Logger(level: .debug, identifier: "badged-mqtt", sink: logs)
  }

  /// Lines from the daemon. The bridge's status reports are answered `OK` as the daemon
  /// would, whenever the test's next reply line is for a request sent after one.
  @discardableResult
  func daemon(_ lines: String...) -> [MeshAction] {
    var actions: [MeshAction] = []
    for line in lines {
      let pushed = line.hasPrefix("EVENT ") || line.hasPrefix("FORWARD ") && !(unanswered.first == "FORWARDS")
      if !pushed {
        while unanswered.first?.hasPrefix("BRIDGE status") == true {
          unanswered.removeFirst()
          core.daemonLine("OK", through: &wire, at: time)
          actions += collect()
        }
      }
      core.daemonLine(line, through: &wire, at: time)
      if line == "OK" || line.hasPrefix("OK ") || line.hasPrefix("ERR ") { unanswered.removeFirst() }
      actions += collect()
    }
    return actions
  }

  /// The core's actions since the last call, its requests sent and noted; its log lines are
  /// written to `logs`, as the runtime writes them to its logger, and left out.
  func collect() -> [MeshAction] {
    var actions: [MeshAction] = []
    for action in core.takeActions() {
      if case .log(let level, let text, let fields) = action {
        logger.log(level, text, fields)
      } else {
        actions.append(action)
      }
    }
    unanswered += wire.send(actions)
    return actions
  }

  /// Connects to the daemon and answers its greeting: the outbox (`forwards`), and the watch's
  /// snapshot (`snapshot`, after the do-not-disturb line).
  @discardableResult
  func connectDaemon(forwards: [String] = [], snapshot: [String] = [], dnd: String = "STATE * dnd=0 left=0")
    -> [MeshAction]
  {
    var actions = startDaemon()
    let watches = core.daemonWatchPatterns != nil
    actions += daemon("OK")
    for line in forwards { actions += daemon(line) }
    actions += daemon("OK")
    if watches {
      actions += daemon(dnd)
      for line in snapshot { actions += daemon(line) }
      actions += daemon("OK watching")
    }
    return actions
  }

  /// The daemon connection is up; its greeting (the connection's first requests and watch),
  /// unanswered.
  @discardableResult
  func startDaemon() -> [MeshAction] {
    greeting = wire.connected()
    unanswered += greeting
    core.daemonConnected(at: time)
    return collect()
  }

  /// The broker accepted the connection; the sync marker not yet back.
  @discardableResult
  func startBroker() -> [MeshAction] {
    core.brokerConnected(at: time)
    return collect()
  }

  /// The broker connection ends.
  @discardableResult
  func brokerDown(error: String? = nil) -> [MeshAction] {
    core.brokerDown(error: error, at: time)
    return collect()
  }

  /// The daemon connection ends.
  @discardableResult
  func daemonClosed() -> [MeshAction] {
    wire.connectionEnded()
    core.daemonClosed(at: time)
    unanswered.removeAll()
    return collect()
  }

  /// Connects to the broker; with `retained`, those messages come before the sync marker.
  @discardableResult
  func connectBroker(retained: [(String, String)] = []) -> [MeshAction] {
    core.brokerConnected(at: time)
    var actions = collect()
    for (topic, payload) in retained { actions += message(topic, payload) }
    let marker = actions.compactMap { action -> [UInt8]? in
      if case .publish(let message) = action, message.topic.hasSuffix("/sync") { return message.payload }
      return nil
    }.last!
    core.brokerMessage(IncomingMessage(topic: core.topics.ownSync, payload: marker), at: time)
    return actions + collect()
  }

  /// A message from the broker.
  @discardableResult
  func message(_ topic: String, _ payload: String, responseTopic: String? = nil, correlation: String? = nil)
    -> [MeshAction]
  {
    core.brokerMessage(
      IncomingMessage(
        topic: topic, payload: bytes(payload), responseTopic: responseTopic, correlation: correlation.map(bytes)),
      at: time)
    return collect()
  }

  /// Time passes; the core's timers run when due.
  @discardableResult
  func advance(ms: UInt64) -> [MeshAction] {
    time.monotonic += ms * 1000
    time.wallMs += Int64(ms)
    core.tick(at: time)
    return collect()
  }
}

extension [MeshAction] {
  /// The requests to the daemon, as lines.
  var sent: [String] {
    compactMap {
      if case .request(let request) = $0 { return RequestEncoder.line(request.request, id: request.id) }
      return nil
    }
  }

  /// The lines sent to the daemon but the bridge's status reports.
  var requests: [String] { sent.filter { !$0.hasPrefix("BRIDGE status") } }

  var published: [MeshMessage] {
    compactMap {
      if case .publish(let message) = $0 { return message }
      return nil
    }
  }

  /// What was published on `topic`, as text.
  func payloads(on topic: String) -> [String] {
    published.filter { $0.topic == topic }.map { String(decoding: $0.payload, as: UTF8.self) }
  }
}

/// A state line of the daemon's for a channel of this machine.
func stateLine(_ kind: String = "EVENT", _ channel: String, count: Int, unseen: Int? = nil, total: Int? = nil, seq: Int)
  -> String
{
  "\(kind) \(channel) count=\(count) label=\(count == 0 ? "" : String(count)) dot=0 pulse=0 muted=0 seq=\(seq) "
    + "badge=count dnd=off unseen=\(unseen ?? count) total=\(total ?? count)"
}

/// An owner's retained state.
func statePayload(_ owner: String, count: Int, total: Int? = nil, seq: Int = 1, claimed: Int64 = 1_764_000_000_000)
  -> String
{
  #"{"count":\#(count),"label":"\#(count == 0 ? "" : String(count))","dot":false,"muted":false,"unseen":\#(count),"total":\#(total ?? count),"seq":\#(seq),"owner":"\#(owner)","pulse":0,"claimed":\#(claimed)}"#
}
