import BadgeCore

/// The daemon's side of the router: its connection, its lines, its going.
extension MeshCore {
  /// The connection to the daemon is up: the session greets it.
  public func daemonConnected(at time: MeshTime) {
    daemon.connected(into: &outbox)
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

  /// One line from the daemon, handed to the part it concerns.
  public func daemonLine(_ line: String, at time: MeshTime) {
    defer { settle() }
    guard let event = daemon.receive(line, into: &outbox) else { return }
    switch event {
    case .forward(let write):
      mirror.forwardTaken(write, synced: broker.isSynced, at: time, into: &outbox)
    case .localChanged(let state):
      owner.own(state.name, state, links: links, at: time, announcer: &homeAssistant, into: &outbox)
    case .localDND(let state):
      dnd.localChanged(state, links: links, at: time, into: &outbox)
    case .dndSnapshot(let state):
      dnd.snapshot(state, links: links, at: time, into: &outbox)
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
