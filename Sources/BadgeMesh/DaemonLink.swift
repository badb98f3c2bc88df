import BadgeCore
import BadgeProtocol

/// What the bridge converts between its own knowledge and the daemon's protocol, in one place:
/// the requests made from what the bridge knows (`MIRROR` from an owner's state, `STALE`, a
/// write from an MQTT command, `DND … from= at=`, `BRIDGE status`), and what it takes of the
/// fields on state lines (`total`, `owner`) and on the do-not-disturb line (`from`, `at`). The
/// requests that carry nothing to convert (`BRIDGE host=`, `FORWARDS`, `WATCH`, `MIRROR …
/// forget`, `DELIVERED`) the parts write as `Request` cases where they send them.
///
/// The bridge spells no protocol word and reads no line: it makes `Request` values, which its
/// connection (`DaemonClient`) writes with the daemon's own encoder, and is handed what the
/// client's decoder read (`ClientSession`'s deliveries). A change in the daemon's side of the
/// contract is a change here.
public enum DaemonLink {
  // MARK: Requests

  /// Puts another machine's state of a channel into this machine's daemon. An owner that sends
  /// no running total (an older version) has one of its count, as the daemon takes a `MIRROR`
  /// without one.
  public static func mirror(_ channel: ChannelName, _ state: ChannelState) -> Request {
    let figures = state.figures
    let update = MirrorUpdate(
      owner: state.owner, count: figures.count, unseen: figures.unseen,
      total: figures.total.map { Int(clamping: $0) } ?? figures.count, muted: figures.muted, dot: figures.dot,
      pulseMs: figures.pulseMs, ownerSeq: figures.seq, label: figures.label)
    return .mirror(channel, update)
  }

  /// Whether `host`'s channels are stale (the host or the broker unreachable), and since when
  /// this machine last heard from it (unix seconds).
  public static func stale(host: String, _ stale: Bool, since: Int64?) -> Request {
    .stale(host: host, stale: stale, since: stale ? since.map { Int(clamping: $0) } : nil)
  }

  /// A write as a request: what an owner's bridge sends its daemon for a command (its id goes
  /// with it, and is left out of a `PULSE`, which takes none).
  public static func request(_ channel: ChannelName, _ command: ChannelCommand) -> Request {
    .write(channel, command.write)
  }

  /// Applies another machine's do-not-disturb change, which the daemon does not hand back as
  /// one of its own (its `*` line then says `from=<host>`), and refuses when it already
  /// applied a newer one. The daemon takes a timed end as a duration: what is left of it at
  /// `nowMs` (this machine's wall clock, which the daemon shares), at most 30 days; an end
  /// already past is sent as off, which it is by now on the machine that made it.
  public static func remoteDND(_ state: DNDState, nowMs: Int64) -> Request {
    func change(_ on: Bool, ms: Int64? = nil) -> Request {
      .remoteDND(RemoteDND(on: on, ms: ms.map(Int.init), from: state.host, at: UInt64(max(0, state.at))))
    }
    guard state.on else { return change(false) }
    guard state.until > 0 else { return change(true) }
    let left = state.until - nowMs
    guard left > 0 else { return change(false) }
    return change(true, ms: min(left, maxDNDMs))
  }

  /// The longest timed do-not-disturb the daemon takes (30 days).
  public static let maxDNDMs = Int64(Limits.dndMs.upperBound)

  /// The bridge's state, for `badgectl` and the daemon's status line; a line break of any kind
  /// in the error reads as a space.
  public static func status(connected: Bool, broker: String, pending: Int, error: String?) -> Request {
    let error = error.map { String($0.map { $0.isNewline ? " " : $0 }) } ?? ""
    return .bridge(.status(BridgeStatus(connected: connected, broker: broker, pending: pending, error: error)))
  }

  // MARK: What the daemon reports

  /// A channel's state as this machine's daemon reports it.
  public struct LocalState: Equatable, Sendable {
    public var name: ChannelName
    public var figures: ChannelFigures
    /// The host that owns it when the channel is a mirror; `nil` for a channel of this machine.
    public var owner: String?

    public init(name: ChannelName, figures: ChannelFigures, owner: String? = nil) {
      self.name = name
      self.figures = figures
      self.owner = owner
    }
  }

  /// Do-not-disturb as the daemon reports it.
  public struct LocalDND: Equatable, Sendable {
    public var on: Bool
    public var leftMs: Int
    /// The machine a change came from, when it came from another (`from=`).
    public var from: String?
    /// When the change was made, in wall-clock milliseconds (`at=`), when the daemon says.
    public var at: Int64?

    public init(on: Bool, leftMs: Int, from: String? = nil, at: Int64? = nil) {
      self.on = on
      self.leftMs = leftMs
      self.from = from
      self.at = at
    }
  }

  /// A channel's state as the client's decoder read it (a snapshot line or an event), for the
  /// bridge; `nil` for a name or an owner this side does not take.
  public static func localState(_ snapshot: ChannelSnapshot) -> LocalState? {
    // The owner, which ReplyLine read (to the daemon's rule), must be a name this side takes.
    let owner = snapshot.mirror?.owner
    guard let name = ChannelName(snapshot.channel), owner.map(MeshConfig.isHostName) ?? true else { return nil }
    let figures = ChannelFigures(
      count: snapshot.count, label: snapshot.label, dot: snapshot.dot, muted: snapshot.muted, unseen: snapshot.unseen,
      total: snapshot.total.map(Int64.init), seq: snapshot.seq, pulseMs: snapshot.pulseMs)
    return LocalState(name: name, figures: figures, owner: owner)
  }

  /// Do-not-disturb as the client's decoder read it, for the bridge.
  public static func localDND(_ dnd: DNDSnapshot) -> LocalDND {
    // `from=`, which ReplyLine read, must be a name this side takes.
    let from = dnd.from.flatMap { MeshConfig.isHostName($0) ? $0 : nil }
    return LocalDND(on: dnd.isOn, leftMs: dnd.leftMs, from: from, at: dnd.at)
  }
}
