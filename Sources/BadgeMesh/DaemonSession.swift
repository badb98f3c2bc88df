import BadgeCore
import BadgeProtocol

/// The bridge's session with its daemon: how far the greeting got, and the latest state of
/// each shared channel of this machine as the daemon reported it. What the connection
/// (`DaemonClient`) read comes in decoded: each line of a reply with the request it answers,
/// the watch stream's snapshot and events, the writes forwarded; what it means for the rest of
/// the bridge comes out as an `Event`, and requests go out through the outbox.
///
/// What every connection asks first is the connection's to ask again (`firstRequests`, then
/// `WATCH` with `watchPatterns`): the bridge's `BRIDGE host=`, the forward outbox, the watch
/// of the shared channels (and of do-not-disturb, which every watcher is pushed).
struct DaemonSession {
  enum Phase { case down, greeting, ready }

  /// What a daemon reply answers.
  enum Awaiting: Equatable, Sendable {
    case hello
    case forwards
    case watchOne
    case mirror(ChannelName)
    case apply(ChannelName, ChannelCommand, ReplyRoute?)
    /// Any other request: a refusal is logged with it.
    case other
  }

  /// What a line means for the other parts of the bridge.
  enum Event: Equatable {
    /// A write to a mirrored channel, for its owner.
    case forward(ForwardedWrite)
    /// A shared channel of this machine changed (already kept in `localStates`).
    case localChanged(DaemonLink.LocalState)
    /// Do-not-disturb changed here.
    case localDND(DaemonLink.LocalDND)
    /// Do-not-disturb as it stood when the bridge started watching.
    case dndSnapshot(DaemonLink.LocalDND)
    /// The daemon accepted the bridge and its snapshot is in.
    case ready
    /// The reply to a `MIRROR`: `refusal` when the daemon did not show the channel.
    case mirrorAnswered(ChannelName, refusal: String?)
    /// The reply to another machine's write carried out here.
    case applyAnswered(ChannelName, ChannelCommand, ReplyRoute?, refusal: String?)
  }

  private let config: MeshConfig
  private var phase = Phase.down
  /// Whether the snapshot of the first `WATCH` on this connection is still coming.
  private var inSnapshot = false
  /// Whether that snapshot's do-not-disturb line, its first, is still to come: a later one is
  /// pushed (`EVENT *`).
  private var dndSnapshotDue = false
  /// The latest state of every shared channel of this machine, as its daemon reports it.
  private(set) var localStates: [ChannelName: DaemonLink.LocalState] = [:]

  init(config: MeshConfig) { self.config = config }

  /// Whether the daemon accepted this bridge and its snapshot is in.
  var isReady: Bool { phase == .ready }

  /// What every connection asks first: who we are, then the forward outbox.
  var firstRequests: [DaemonRequest] {
    [DaemonRequest(.bridge(.attach(host: config.host)), .hello), DaemonRequest(.forwards, .forwards)]
  }

  /// What every connection watches after its first requests: the shared channels, or only
  /// do-not-disturb (which every watcher is pushed) when it is shared and no channel is;
  /// `nil` when nothing is.
  var watchPatterns: [ChannelPattern]? {
    if !config.share.isEmpty { return config.share }
    return config.dnd == .shared ? [] : nil
  }

  /// The connection is up: its first requests and its watch are on their way.
  mutating func connected() {
    phase = .greeting
    inSnapshot = watchPatterns != nil
    dndSnapshotDue = inSnapshot
  }

  /// The connection ended; whether it had been up.
  mutating func closed() -> Bool {
    let wasUp = phase != .down
    phase = .down
    inSnapshot = false
    dndSnapshotDue = false
    localStates.removeAll()
    return wasUp
  }

  /// A line of the reply to `request`.
  mutating func replied(_ request: DaemonRequest, _ line: ReplyLine, into outbox: inout MeshOutbox) -> Event? {
    switch line {
    case .ok:
      return answered(request, refusal: nil, into: &outbox)
    case .error(let code, let message):
      return answered(request, refusal: "\(code) \(message)", into: &outbox)
    case .state(let snapshot):
      guard case .watchOne = request.awaiting, let state = DaemonLink.localState(snapshot) else { return nil }
      return localChanged(state)
    default:
      return nil
    }
  }

  /// What the connection read besides replies: the watch stream's lines, forwarded writes.
  mutating func received<Ticket>(_ delivery: ClientSession<Ticket>.Delivery, into outbox: inout MeshOutbox)
    -> Event?
  {
    switch delivery {
    case .forward(let id, let channel, let write):
      return .forward(ForwardedWrite(id: id, channel: channel, command: ChannelCommand(write, id: id)))
    case .unreadableForward(let text):
      outbox.log(
        .warning,
        "Cannot deliver the forwarded write '\(text)': this badged-mqtt does not know it; it stays in badged's outbox.")
      return nil
    case .event(let snapshot):
      return DaemonLink.localState(snapshot).flatMap { localChanged($0) }
    case .channel(let snapshot):
      guard let state = DaemonLink.localState(snapshot) else { return nil }
      // A later snapshot (a gap healed) reports each channel as it is now: a change.
      guard inSnapshot else { return localChanged(state) }
      if state.owner == nil, config.shares(state.name) { localStates[state.name] = state }
      return nil
    case .dnd(let dnd):
      guard dndSnapshotDue else { return .localDND(DaemonLink.localDND(dnd)) }
      dndSnapshotDue = false
      return .dndSnapshot(DaemonLink.localDND(dnd))
    case .watching:
      return snapshotEnded()
    case .watchRefused(let code, let message):
      outbox.log(.warning, "badged refused to watch the shared channels: \(code) \(message)")
      return snapshotEnded()
    case .reply, .gap, .cleared, .reloaded:
      return nil
    }
  }

  /// The first snapshot is in: the bridge is ready. A later one (a gap healed) changes nothing
  /// but the channels it lists.
  private mutating func snapshotEnded() -> Event? {
    guard inSnapshot else { return nil }
    inSnapshot = false
    phase = .ready
    return .ready
  }

  /// A shared channel of this machine changed. Mirrors are other machines' channels; a channel
  /// `share` does not name is not published.
  private mutating func localChanged(_ state: DaemonLink.LocalState) -> Event? {
    guard state.owner == nil, config.shares(state.name) else { return nil }
    localStates[state.name] = state
    return .localChanged(state)
  }

  /// A reply's status line, for the request it answers.
  private mutating func answered(_ request: DaemonRequest, refusal: String?, into outbox: inout MeshOutbox)
    -> Event?
  {
    switch request.awaiting {
    case .hello:
      if let refusal {
        phase = .down
        outbox.append(.closeDaemon(reason: "badged refused the bridge: \(refusal)"))
      }
      return nil
    case .forwards:
      if let refusal { outbox.log(.warning, "badged did not hand over its forward outbox: \(refusal)") }
      guard watchPatterns == nil else { return nil }
      phase = .ready
      return .ready
    case .watchOne:
      return nil
    case .mirror(let channel):
      return .mirrorAnswered(channel, refusal: refusal)
    case .apply(let channel, let command, let route):
      return .applyAnswered(channel, command, route, refusal: refusal)
    case .other:
      if let refusal {
        outbox.log(.warning, "badged refused \(RequestEncoder.line(request.request, id: request.id)): \(refusal)")
      }
      return nil
    }
  }
}
