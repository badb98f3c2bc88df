import BadgeCore
import BadgeLog
import BadgeProtocol

/// A message to publish.
public struct MeshMessage: Equatable, Sendable {
  public var topic: String
  public var payload: [UInt8]
  public var retain: Bool
  /// MQTT 5 response topic and correlation data: where and with what an answer is expected.
  public var responseTopic: String?
  public var correlation: [UInt8]?
  /// MQTT 5 message expiry, for what is pointless when late (a pulse).
  public var expirySeconds: UInt32?

  public init(
    topic: String, payload: [UInt8], retain: Bool, responseTopic: String? = nil, correlation: [UInt8]? = nil,
    expirySeconds: UInt32? = nil
  ) {
    self.topic = topic
    self.payload = payload
    self.retain = retain
    self.responseTopic = responseTopic
    self.correlation = correlation
    self.expirySeconds = expirySeconds
  }
}

extension MeshMessage {
  /// This machine's status, retained (`online`, or `offline` while its daemon is away).
  static func hostStatus(online: Bool, on topic: String) -> MeshMessage {
    MeshMessage(topic: topic, payload: Array((online ? "online" : "offline").utf8), retain: true)
  }
}

/// A message the broker delivered.
public struct IncomingMessage: Equatable, Sendable {
  public var topic: String
  public var payload: [UInt8]
  public var responseTopic: String?
  public var correlation: [UInt8]?

  public init(topic: String, payload: [UInt8], responseTopic: String? = nil, correlation: [UInt8]? = nil) {
    self.topic = topic
    self.payload = payload
    self.responseTopic = responseTopic
    self.correlation = correlation
  }
}

/// A request to the daemon and what its reply answers: the runtime sends `request` (with `id`)
/// and hands each line of its reply back with it (`MeshCore.daemonReplied`), so the core needs
/// no list of its own of what is awaited.
public struct DaemonRequest: Equatable, Sendable {
  public let request: Request
  public let id: String?
  let awaiting: DaemonSession.Awaiting

  init(_ request: Request, id: String? = nil, _ awaiting: DaemonSession.Awaiting) {
    self.request = request
    self.id = id
    self.awaiting = awaiting
  }
}

/// What the core asks of the bridge's connections, in order.
public enum MeshAction: Equatable, Sendable {
  /// A request to the daemon.
  case request(DaemonRequest)
  /// The daemon refused the bridge: close the connection and try again later.
  case closeDaemon(reason: String)
  /// Publish with QoS 1.
  case publish(MeshMessage)
  /// Subscribe to these topic filters with this QoS (0 or 1).
  case subscribe([String], qos: Int32)
  /// A one-line summary of the bridge for the service manager (`STATUS=`).
  case status(String)
  /// A line for the journal, which the runtime writes: the core decides what to log, the
  /// runtime's logger where it goes and at which level it is kept.
  case log(Logger.Level, String, [Logger.Field])
}

/// The two clocks every input comes with.
public struct MeshTime: Equatable, Sendable {
  /// Monotonic microseconds, for intervals.
  public var monotonic: UInt64
  /// Wall-clock milliseconds since 1970, for what other machines read (claims, do-not-disturb).
  public var wallMs: Int64

  public init(monotonic: UInt64, wallMs: Int64) {
    self.monotonic = monotonic
    self.wallMs = wallMs
  }
}
