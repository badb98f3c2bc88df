import BadgeProtocol

/// The bridge's state as it reports it: to the daemon (`BRIDGE status`, which `badgectl`
/// shows) and to the service manager (`STATUS=`). A change is reported at once when it matters
/// (a connection came or went), else at most once a second (the writes waiting, which change
/// with every write).
struct StatusReport {
  /// What the status says, from the parts that know it.
  struct Facts {
    var broker: BrokerAddress
    var phase: BrokerSession.Phase
    /// Why the broker's last connection failed, shown until it syncs again.
    var error: String?
    var sharing: Int
    var mirroring: Int
    var waiting: Int
  }

  /// The status last sent, and when.
  private var last: Request?
  private var lastAt: UInt64 = 0
  /// A change waits for its second to pass.
  private(set) var isDirty = false

  /// Something the status counts changed: it is reported by the next tick due.
  mutating func markDirty() { isDirty = true }

  /// The daemon is new: the next status goes to it even if unchanged.
  mutating func forgetLast() { last = nil }

  /// Reports `facts`: at once when `now`, else at most once a second; to the daemon only
  /// while it is ready.
  mutating func report(_ facts: Facts, daemonReady: Bool, now: Bool, at time: MeshTime, into outbox: inout MeshOutbox) {
    let synced = facts.phase == .synced
    let status = DaemonLink.status(
      connected: synced, broker: facts.broker.description, pending: facts.waiting, error: synced ? nil : facts.error)
    guard status != last else {
      isDirty = false
      return
    }
    guard now || time.monotonic >= lastAt + 1_000_000 else {
      isDirty = true
      return
    }
    isDirty = false
    lastAt = time.monotonic
    last = status
    if daemonReady { outbox.send(status) }
    outbox.append(.status(StatusReport.summary(facts)))
  }

  /// When a change waiting is due; `nil` when none waits.
  var nextDeadline: UInt64? { isDirty ? lastAt + 1_000_000 : nil }

  /// One line for `systemctl status`.
  static func summary(_ facts: Facts) -> String {
    let sharing = "sharing \(facts.sharing), mirroring \(facts.mirroring), \(facts.waiting) writes waiting"
    switch facts.phase {
    case .synced: return "Connected to \(facts.broker); \(sharing)"
    case .syncing: return "Connecting to \(facts.broker); \(sharing)"
    case .down: return "Not connected to \(facts.broker)\(facts.error.map { ": \($0)" } ?? ""); \(sharing)"
    }
  }
}
