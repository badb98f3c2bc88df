import BadgeCore
import BadgeProtocol

/// The daemon's side of the router: its connection, what it read, its going.
extension MeshCore {
  /// What every connection to the daemon asks first, before its watch; the connection asks it
  /// again on each, and hands each line of the replies back (`daemonReplied`).
  public var daemonFirstRequests: [DaemonRequest] { daemon.firstRequests }

  /// What every connection to the daemon watches after its first requests; `nil` for nothing.
  public var daemonWatchPatterns: [ChannelPattern]? { daemon.watchPatterns }

  /// The connection to the daemon is up: its first requests and its watch are on their way.
  public func daemonConnected(at time: MeshTime) {
    daemon.connected()
    settle()
  }

  /// The connection to the daemon ended. What the daemon keeps (its outbox, its mirrors) it
  /// lists again on the next one; until then this machine is `offline` to the others, who
  /// then send their writes again when it is back.
  public func daemonClosed(at time: MeshTime) {
    let wasUp = daemon.closed()
    mirror.daemonClosed()
    owner.daemonClosed()
    if wasUp && broker.isUp { publishOwnStatus() }
    reportStatus(at: time, now: true)
    settle()
  }

  /// A line of the reply to `request`, which the core asked for.
  public func daemonReplied(_ request: DaemonRequest, _ line: ReplyLine, at time: MeshTime) {
    defer { settle() }
    guard let event = daemon.replied(request, line, into: &outbox) else { return }
    handle(event, at: time)
  }

  /// What the connection read besides replies (the watch stream, forwarded writes), handed to
  /// the part it concerns.
  public func daemonReceived<Ticket>(_ delivery: ClientSession<Ticket>.Delivery, at time: MeshTime) {
    defer { settle() }
    guard let event = daemon.received(delivery, into: &outbox) else { return }
    handle(event, at: time)
  }

  private func handle(_ event: DaemonSession.Event, at time: MeshTime) {
    switch event {
    case .forward(let write):
      mirror.forwardTaken(write, synced: broker.isSynced, at: time, into: &outbox)
    case .localChanged(let state):
      owner.own(state.name, state, links: links, at: time, announcer: &homeAssistant, into: &outbox)
    case .localDND(let state), .dndSnapshot(let state):
      dnd.reported(state, links: links, at: time, into: &outbox)
    case .ready:
      daemonReady(at: time)
    case .mirrorAnswered(let channel, let refusal):
      mirror.mirrorAnswered(channel, refusal: refusal, into: &outbox)
    case .applyAnswered(let channel, let command, let route, let refusal):
      writes.applyAnswered(channel, command, route, refusal: refusal, into: &outbox)
    }
  }

  /// The daemon's snapshot is in: tell it what this bridge knows, then act as owner.
  private func daemonReady(at time: MeshTime) {
    mirror.daemonReady(synced: broker.isSynced, into: &outbox)
    dnd.daemonReady(at: time, into: &outbox)
    if broker.isUp { publishOwnStatus() }
    status.forgetLast()
    reconcile(at: time)
    reportStatus(at: time, now: true)
  }
}
