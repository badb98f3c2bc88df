import BadgeCore

/// One client as the protocol sees it, without its socket: the output waiting to be sent,
/// what it watches, and its part in the current turn.
///
/// The server's core (`ServerCore` and its parts) works on peers only, so tests drive it
/// in-process; the daemon's `Connection` is a peer with a socket. The core is generic over the
/// peer type, so what it hands back (a client to send to, to close) is the daemon's own type.
open class Peer {
  public final let id: Int
  /// The peer's process, for logs (`SO_PEERCRED`); `nil` when unknown.
  public final let pid: Int32?
  /// Bytes to send are `output[outputOffset...]`.
  public final var output: [UInt8] = []
  public final var outputOffset = 0

  /// What the peer watches: `nil` when it does not watch, an empty set for every channel.
  /// Unindexed: its events are found through the `WatcherIndex`, and this set is scanned only
  /// to filter what it missed while behind.
  final var patterns: ChannelPatternSet? = nil
  /// Where the peer's entry is in the `WatcherIndex` list of each of its patterns, by the
  /// pattern's place in `patterns` (one entry for a watcher of every channel): the first
  /// pattern's here, the others' in a list, which most watchers (of one pattern) never need.
  final var firstSlot = 0
  final var moreSlots: [Int] = []
  /// The last `WatcherIndex` lookup that visited it, so that one visits it once.
  final var visit: UInt64 = 0
  /// The run of events being published when it was last counted (`Subscriptions`), and how
  /// many of the run's events it watches (-1 once it took the whole run).
  final var runStamp: UInt64 = 0
  final var runMatches = 0
  /// The rest of a reply too long for one turn (`LIST`, a `WATCH` snapshot, `STATS`),
  /// produced a chunk at a time as the output drains; later requests wait for it.
  final var reply: PendingReply?
  /// While the peer is behind (its output was over `Subscriptions.eventHighWater`): the number
  /// of the first event it has not been sent; what it missed waits in the `EventBacklog`.
  final var behindFrom: UInt64?
  /// Do-not-disturb changed while the output was congested: its latest state is owed. About
  /// what the peer watches, however it reads.
  final var mergedDND = false
  /// The number of events staged in this turn when the peer began watching: it gets only the
  /// later ones (its `WATCH` snapshot already shows the earlier ones).
  final var watchedFromEvent = 0

  // A peer's flags, each independent of the others and of the daemon's connection's life
  // (`Connection.State`: reading, paused, draining, closed), which a peer without a socket
  // does not have:

  /// Whether the peer changed, or read, state this turn that is not saved yet: if the commit
  /// fails, it is closed without its replies. About the turn's commit, whatever the peer does
  /// meanwhile: a peer that asked to `QUIT` after a change depends on the turn as much.
  final var dependsOnTurn = false
  /// Where it is in the `SendQueue`. About output, which any peer but a closed one may have to
  /// send, reading or not.
  public final internal(set) var sendPlace = SendPlace.unqueued
  /// Whether its unsent output holds a reply (a request carried out, a long reply's chunk):
  /// it is sent every turn whatever the send budget, until everything is sent. About what the
  /// output holds, not whether the peer reads: a paused or draining peer may owe one.
  public final var owesReply = false

  /// Whether it waits in the `SendQueue` for the end of the turn (this one, or the next when
  /// the turn's send budget did not reach it).
  public final var queuedForSend: Bool { sendPlace != .unqueued }
  /// Whether the send budget of an earlier turn did not reach it: it keeps its place at the
  /// head of the queue, and the next turn begins without waiting to send it.
  public final var carriedOver: Bool { sendPlace == .carried }

  /// The output buffer kept once everything is sent: a request/response client's replies fit,
  /// so its buffer serves every turn; a bigger one (a watcher's during a burst, a long `LIST`)
  /// is freed, so that a thousand watchers do not each hold their largest burst.
  public static let keptOutputCapacity = 4 << 10

  public init(id: Int, pid: Int32?) {
    self.id = id
    self.pid = pid
  }

  /// Bytes queued but not yet sent.
  public final var pendingOutput: Int { output.count - outputOffset }

  /// Everything was sent: empties the output, freeing its buffer when it is larger than
  /// `keptOutputCapacity` and no reply is under way (whose next chunk will fill it again: a
  /// long reply keeps its one buffer rather than allocating a chunk's every turn, and having
  /// the heap trimmed every second while it lasts). Returns the bytes freed.
  @inlinable
  public final func outputSent() -> Int {
    outputOffset = 0
    owesReply = false
    let capacity = output.capacity
    guard capacity > Peer.keptOutputCapacity, !isReplying else {
      output.removeAll(keepingCapacity: true)
      return 0
    }
    output = []
    return capacity
  }

  /// Part of the output was sent: once the sent bytes are at least as many as those still
  /// waiting, they are dropped from the front, so the buffer holds at most twice what waits
  /// rather than everything sent since it last drained.
  public final func outputPartlySent() {
    guard outputOffset > Peer.keptOutputCapacity, outputOffset >= pendingOutput else { return }
    output.removeFirst(outputOffset)
    outputOffset = 0
  }

  public final var isWatching: Bool { patterns != nil }

  /// Whether a reply is under way: its next chunk comes before any later request is read.
  public final var isReplying: Bool { reply != nil }

  /// Whether events merged while it was behind, or do-not-disturb's latest state, are owed
  /// (once a reply under way has ended): otherwise `Subscriptions.appendMergedEvents` has
  /// nothing to append, and is not called.
  public final var owesMergedEvents: Bool { (behindFrom != nil || mergedDND) && reply == nil }

  /// Whether a change of `name` is pushed to this peer.
  @inline(__always)
  public final func watches(_ name: ChannelName) -> Bool {
    guard let patterns else { return false }
    return patterns.isEmpty || patterns.matches(name)
  }

  /// The peer asked to end the connection (`QUIT`), its reply appended: the daemon's connection
  /// takes it as an event of its life (it carries out no later line, and closes once its
  /// output is sent); a peer without a socket has no life to end.
  open func quit() {}

  /// Drops everything not sent yet (a peer closed without its replies).
  public final func discardOutput() {
    output = []
    outputOffset = 0
    owesReply = false
  }
}

/// Where a peer is in the `SendQueue`.
public enum SendPlace: Sendable {
  /// Not queued: nothing to send, or waiting for room to write.
  case unqueued
  /// Queued in this turn, to be sent at its end.
  case queued
  /// Left by an earlier turn's send budget, at the head of the queue.
  case carried
}
