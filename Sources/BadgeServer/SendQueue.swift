/// The clients with output to send at the end of the turn, each once, in the order their output
/// first grew: replies as requests are carried out, events as they are published.
///
/// A turn sends every client whose output holds a reply, and then, within a budget, the
/// others: watchers whose output is events only. The ones the budget did not reach are carried
/// over, in order, to the head of the next turn's queue, so a burst's thousand watchers never
/// hold up the next turn, whose new client is answered in it, and no watcher is passed over
/// for more than a few turns. A client's reply is never carried over: it leaves in the turn
/// that carried out its request, with whatever of the client's own output came before it.
///
/// Only the queue is kept here; sending is the daemon's (its `SocketSender` drains the queue in the
/// turn's `sending` phase, the one time output leaves).
public final class SendQueue<Client: Peer> {
  private var clients: [Client] = []
  /// The clients an earlier turn's budget did not reach, in the order they were queued.
  private var carried: [Client] = []
  /// The carried clients being sent now; swapped with `carried`, so neither is copied.
  private var earlier: [Client] = []
  private let turn: Turn

  init(turn: Turn) {
    self.turn = turn
    clients.reserveCapacity(64)
  }

  /// Whether no client was queued in this turn (carried ones aside).
  public var isEmpty: Bool { clients.isEmpty }

  /// How many clients wait from an earlier turn whose budget did not reach them.
  public var carriedCount: Int { carried.count }

  /// Queues `client` for the end of this turn (once).
  @inline(__always)
  public func add(_ client: Client) {
    guard client.sendPlace == .unqueued else { return }
    client.sendPlace = .queued
    clients.append(client)
  }

  /// `client` is closed: it is not sent to, and leaves the queue when the turn's sending comes
  /// to its place.
  func forget(_ client: Client) {
    client.sendPlace = .unqueued
  }

  /// Queues `client`, whose output now holds a reply: sent in this turn whatever the budget.
  @inline(__always)
  public func addReply(_ client: Client) {
    client.owesReply = true
    add(client)
  }

  /// Hands queued clients to `send`, each taken off the queue first: every client that owes a
  /// reply, then, the carried ones first, the others while `budget` allows one more (it is
  /// asked before each, until it says no); a client queued meanwhile is handed over too. The
  /// rest stay queued, in order, for the next turn (`carriedCount`). Only at the end of the
  /// turn.
  public func drain(while budget: () -> Bool = { true }, _ send: (Client) -> Void) {
    assert(turn.phase == .sending, "output is sent only at the end of a turn")
    swap(&carried, &earlier)
    func hand(_ client: Client) {
      client.sendPlace = .unqueued
      send(client)
    }
    for client in earlier where client.owesReply && client.queuedForSend { hand(client) }
    var i = 0
    while i < clients.count {
      let client = clients[i]
      i += 1
      if client.owesReply && client.queuedForSend { hand(client) }
    }
    var spent = false
    func handWithin(_ client: Client) {
      guard client.queuedForSend else { return }  // handed over already for its reply, or closed
      if client.owesReply {  // queued meanwhile
        hand(client)
      } else if !spent && budget() {
        hand(client)
      } else {
        spent = true
        client.sendPlace = .carried
        carried.append(client)
      }
    }
    for client in earlier { handWithin(client) }
    i = 0
    while i < clients.count {
      let client = clients[i]
      i += 1
      handWithin(client)
    }
    earlier.removeAll(keepingCapacity: earlier.capacity <= 4096)
    clients.removeAll(keepingCapacity: clients.capacity <= 4096)
  }
}
