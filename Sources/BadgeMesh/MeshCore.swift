import BadgeCore

/// The bridge's decisions, pure: it is told what the daemon and the broker said and when, and
/// answers with `MeshAction`s (log lines among them); it reads no clock and touches no socket,
/// so tests drive it line by line and message by message.
///
/// It only routes, in the manner of zigbee2mqtt's controller and its extensions: each input
/// goes to the parts that care about it, each part owns its fields and writes what it asks for
/// into one outbox, and what one part must know of another's it is handed with the call (the
/// connections' standing as `MeshLinks`, the owner's claims, the daemon's local states).
/// - `DaemonSession`: the daemon's greeting, the replies awaited, the local states reported;
/// - `BrokerSession`: the broker's connection and its sync marker;
/// - `OwnerRole`: claims, publishing the channels shared here, giving way;
/// - `IncomingWrites`: other machines' writes to the channels owned here;
/// - `MirrorRole`: other owners' states and hosts, and the writes forwarded to them;
/// - `SharedDND`: do-not-disturb shared between machines;
/// - `HomeAssistantAnnouncer`: Home Assistant's discovery configs;
/// - `StatusReport`: the bridge's status for the daemon and the service manager.
public final class MeshCore {
  public let config: MeshConfig
  public let topics: MeshTopics
  var outbox = MeshOutbox()
  var daemon: DaemonSession
  var broker = BrokerSession()
  var owner: OwnerRole
  var writes: IncomingWrites
  var mirror: MirrorRole
  var dnd: SharedDND
  var homeAssistant: HomeAssistantAnnouncer
  var status = StatusReport()

  public init(config: MeshConfig) {
    self.config = config
    topics = MeshTopics(prefix: config.prefix, host: config.host)
    daemon = DaemonSession(config: config)
    owner = OwnerRole(config: config, topics: topics)
    writes = IncomingWrites(topics: topics)
    mirror = MirrorRole(config: config, topics: topics)
    dnd = SharedDND(config: config, topics: topics)
    homeAssistant = HomeAssistantAnnouncer(config: config, topics: topics)
  }

  public var host: String { config.host }

  /// The actions asked for since the last call, in order.
  public func takeActions() -> [MeshAction] { outbox.takeActions() }

  /// Whether the daemon accepted this bridge and its snapshot is in: the daemon connection
  /// counts as up only then (a daemon that refuses the bridge is a failed attempt).
  public var isDaemonReady: Bool { daemon.isReady }

  /// How many writes wait for their owners.
  public var pendingWrites: Int { mirror.pendingWrites }

  /// The channels this machine owns now, and those it mirrors.
  public var ownedChannels: [ChannelName] { owner.claims.held.sorted() }
  public var mirroredChannels: [ChannelName] { mirror.channels }

  /// How the connections stand now, for the parts.
  var links: MeshLinks {
    MeshLinks(daemonReady: daemon.isReady, brokerUp: broker.isUp, synced: broker.isSynced)
  }

  /// After each input: a change of what the status counts is reported within a second.
  func settle() {
    if outbox.statusChanged {
      outbox.statusChanged = false
      status.markDirty()
    }
  }

  /// `online` while the daemon is reachable, else `offline`.
  func publishOwnStatus() {
    outbox.publish(.hostStatus(online: daemon.isReady, on: topics.ownStatus))
  }

  /// With the daemon's states and the broker's claims both known: claim and publish what is
  /// shared here, look up shared channels the daemon did not list, release what is no longer
  /// shared, announce to Home Assistant, publish do-not-disturb.
  func reconcile(at time: MeshTime) {
    let links = self.links
    guard links.daemonReady && links.synced else { return }
    owner.reconcile(daemon.localStates, links: links, at: time, announcer: &homeAssistant, into: &outbox)
    homeAssistant.announceAll(owner.claims.held.sorted(), into: &outbox)
    dnd.synced(into: &outbox)
  }

  /// The bridge's state for the daemon (`badgectl`) and the service manager: at once when
  /// `now`, else at most once a second.
  func reportStatus(at time: MeshTime, now: Bool) {
    let facts = StatusReport.Facts(
      broker: config.broker, phase: broker.phase, error: broker.error, sharing: owner.claims.held.count,
      mirroring: mirror.mirroredCount, waiting: mirror.pendingWrites)
    status.report(facts, daemonReady: daemon.isReady, now: now, at: time, into: &outbox)
  }
}
