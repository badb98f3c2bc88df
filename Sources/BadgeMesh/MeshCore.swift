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

/// What the core asks of the bridge's connections, in order.
public enum MeshAction: Equatable, Sendable {
  /// A request line to the daemon.
  case send(String)
  /// The daemon refused the bridge: close the connection and try again later.
  case closeDaemon(reason: String)
  /// Publish with QoS 1.
  case publish(MeshMessage)
  /// Subscribe to these topic filters with this QoS (0 or 1).
  case subscribe([String], qos: Int32)
  /// A one-line summary of the bridge for the service manager (`STATUS=`).
  case status(String)
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

/// The bridge's decisions, pure: it is told what the daemon and the broker said and when, and
/// answers with `MeshAction`s; it reads no clock and touches no socket, so tests drive it line
/// by line and message by message.
///
/// As an owner it claims the channels `share` names, publishes their states (coalesced,
/// retained) and carries out the writes other machines send them. As a mirror it puts other
/// owners' states into its daemon (`MIRROR`), marks them stale while their owner or the
/// broker is away, and delivers the writes its daemon forwards until their owners answer.
/// It shares do-not-disturb (last writer wins) and announces channels to Home Assistant.
public final class MeshCore {
  public let config: MeshConfig
  public let topics: MeshTopics
  let homeAssistant: HomeAssistant
  public var logger: Logger
  var actions: [MeshAction] = []

  // The daemon connection.
  enum DaemonPhase { case down, greeting, ready }
  var daemonPhase = DaemonPhase.down
  /// What each reply still to come answers, in request order.
  var awaiting = FIFO<Awaiting>()
  /// The latest state of every shared channel of this machine, as its daemon reports it.
  var localStates: [ChannelName: DaemonLink.LocalState] = [:]

  // The broker connection.
  enum BrokerPhase: Equatable {
    case down
    /// Subscribed; waiting for the marker published after the subscriptions to come back,
    /// which says that every retained message they bring has arrived.
    case syncing(token: String, since: UInt64)
    case synced
  }
  var brokerPhase = BrokerPhase.down
  var connections = 0
  var brokerError: String?
  var claims: Claims
  /// Shared channels this machine gave way on, each logged once.
  var yielded: Set<ChannelName> = []
  /// The latest state of each channel mirrored here, as its owner published it.
  var mirrors: [ChannelName: ChannelState] = [:]
  /// Mirrored channels that a local channel of the same name hides, each logged once.
  var hidden: Set<ChannelName> = []
  var hosts: [String: HostInfo] = [:]
  var forwards = ForwardQueue()
  var coalescer = StateCoalescer<ChannelState>()
  /// The state of each channel owned here as it was last published, to tell the broker's
  /// echo of it from a state someone else wrote in this machine's name.
  var published: [ChannelName: ChannelState] = [:]
  var dnd: DNDSync
  /// The last do-not-disturb change applied here from another machine, to know it when the
  /// daemon reports it back.
  var appliedDND: (state: DNDState, at: UInt64)?
  var pendingRemoteDND: DNDState?
  var pendingLocalDND: DNDState?
  /// Commands that came before the retained states did, carried out once they have.
  var earlyCommands: [(channel: ChannelName, command: ChannelCommand, route: ReplyRoute?)] = []
  static let maxEarlyCommands = 1000
  /// Home Assistant configs sent on this connection.
  var announced: Set<ChannelName> = []
  var switchAnnounced = false
  /// When to send every config again, after Home Assistant's birth message.
  var announceAgainAt: UInt64?
  var lastStatus: Request?
  var lastStatusAt: UInt64 = 0
  var statusDirty = false

  /// What a host's messages said last.
  struct HostInfo {
    var online: Bool?
    /// When this machine last heard from it (unix seconds).
    var lastHeard: Int64?
  }

  /// Where an answer goes.
  struct ReplyRoute: Equatable {
    var topic: String
    var correlation: [UInt8]?
  }

  /// What a daemon reply answers.
  enum Awaiting {
    case hello
    case forwards
    case watch
    case watchOne
    case mirror(ChannelName)
    case apply(ChannelName, ChannelCommand, ReplyRoute?)
    /// Any other request: its line, which a refusal is logged with.
    case other(String)
  }

  public init(config: MeshConfig, logger: Logger) {
    self.config = config
    topics = MeshTopics(prefix: config.prefix, host: config.host)
    homeAssistant = HomeAssistant(topics: topics)
    self.logger = logger
    claims = Claims(host: config.host)
    dnd = DNDSync(host: config.host)
  }

  public var host: String { config.host }

  /// The actions asked for since the last call, in order.
  public func takeActions() -> [MeshAction] {
    defer { actions.removeAll(keepingCapacity: true) }
    return actions
  }

  var daemonReady: Bool { daemonPhase == .ready }

  /// Whether the daemon accepted this bridge and its snapshot is in: the daemon connection
  /// counts as up only then (a daemon that refuses the bridge is a failed attempt).
  public var isDaemonReady: Bool { daemonReady }
  var synced: Bool { brokerPhase == .synced }

  /// Sends `request` (with `id`, when it takes one) to the daemon, written by the daemon's own
  /// encoder; its reply goes to `awaiting`, or is logged by the line when it is a refusal.
  func send(_ request: Request, id: String? = nil, _ awaiting: Awaiting? = nil) {
    let line = RequestEncoder.line(request, id: id)
    actions.append(.send(line))
    self.awaiting.push(awaiting ?? .other(line))
  }

  func publish(_ message: MeshMessage) { actions.append(.publish(message)) }

  /// How many writes wait for their owners.
  public var pendingWrites: Int { forwards.count }

  /// The channels this machine owns now, and those it mirrors.
  public var ownedChannels: [ChannelName] { claims.held.sorted() }
  public var mirroredChannels: [ChannelName] { mirrors.keys.sorted() }
}

/// A first-in first-out queue that pops in constant time.
struct FIFO<Element> {
  private var items: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == items.count }

  mutating func push(_ item: Element) { items.append(item) }

  mutating func pop() -> Element? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024 && head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return item
  }

  var first: Element? { head < items.count ? items[head] : nil }

  mutating func removeAll() {
    items.removeAll()
    head = 0
  }
}
