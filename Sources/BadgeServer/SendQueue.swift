/// The clients with output to send at the end of the turn, each once, in the order their output
/// first grew: replies as requests are carried out, events as they are published.
///
/// Only the queue is kept here; sending is the daemon's (its `Outbox` drains the queue in the
/// turn's `sending` phase, the one time output leaves).
public final class SendQueue<Client: Peer> {
  private var clients: [Client] = []
  private let turn: Turn

  init(turn: Turn) {
    self.turn = turn
    clients.reserveCapacity(64)
  }

  public var isEmpty: Bool { clients.isEmpty }

  /// Queues `client` for the end of this turn (once, and never a closed one).
  @inline(__always)
  public func add(_ client: Client) {
    guard !client.queuedForSend, !client.closed else { return }
    client.queuedForSend = true
    clients.append(client)
  }

  /// Hands every queued client to `send`, in order, taking each off the queue first; a client
  /// queued meanwhile is handed over too. Only at the end of the turn.
  public func drain(_ send: (Client) -> Void) {
    assert(turn.phase == .sending, "output is sent only at the end of a turn")
    var i = 0
    while i < clients.count {
      let client = clients[i]
      i += 1
      client.queuedForSend = false
      send(client)
    }
    clients.removeAll(keepingCapacity: clients.capacity <= 4096)
  }
}
