/// The bridge's session with the broker: down, syncing (subscribed, waiting for the marker
/// published after the subscriptions to come back, which says every retained message they
/// bring has arrived) or synced; and why the last connection failed.
struct BrokerSession {
  enum Phase: Equatable {
    case down
    case syncing(token: String, since: UInt64)
    case synced
  }

  /// How long to wait for the sync marker before going on without it (a broker whose ACL
  /// refuses this host its own `sync` topic).
  static let syncTimeout: UInt64 = 10_000_000

  private(set) var phase = Phase.down
  /// Connections made, which tell one connection's marker from another's.
  private var connections = 0
  /// Why the last connection failed or ended.
  private(set) var error: String?

  var isUp: Bool { phase != .down }
  var isSynced: Bool { phase == .synced }

  /// The broker accepted the connection: the marker to publish, which comes back after every
  /// retained message.
  mutating func connected(at time: MeshTime) -> String {
    connections += 1
    let token = "\(connections)-\(time.wallMs)"
    phase = .syncing(token: token, since: time.monotonic)
    error = nil
    return token
  }

  /// The connection failed or ended; whether it had been up.
  mutating func down(error: String?) -> Bool {
    let wasUp = phase != .down
    phase = .down
    self.error = error
    return wasUp
  }

  /// Whether `payload` on this host's sync topic is the marker this connection waits for.
  func isAwaitedMarker(_ payload: [UInt8]) -> Bool {
    if case .syncing(let token, _) = phase { return payload.elementsEqual(token.utf8) }
    return false
  }

  mutating func markSynced() { phase = .synced }

  /// Whether the marker on `topic` is overdue at `now`, said with a warning: the bridge goes
  /// on without it.
  func markerOverdue(now: UInt64, topic: String, into outbox: inout MeshOutbox) -> Bool {
    guard case .syncing(_, let since) = phase, now >= since + BrokerSession.syncTimeout else { return false }
    outbox.log(
      .warning,
      "The sync marker on \(topic) did not come back within 10 s (does the broker's ACL let this host publish "
        + "and subscribe to it?); going on without it."
    )
    return true
  }

  /// When the marker is overdue; `nil` when none is awaited.
  var nextDeadline: UInt64? {
    if case .syncing(_, let since) = phase { return since + BrokerSession.syncTimeout }
    return nil
  }
}
