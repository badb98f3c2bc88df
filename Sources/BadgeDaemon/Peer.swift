import BadgeCore

/// One client as the protocol sees it, without its socket: the output waiting to be sent,
/// what it watches, and its part in the current turn.
///
/// The pure parts of the server (`CommandExecutor`, `Subscriptions`, `GroupCommit`) work on
/// peers only, so tests drive them in-process; `Connection` adds the socket.
class Peer {
  final let id: Int
  /// The peer's process, for logs (`SO_PEERCRED`); `nil` when unknown.
  final let pid: Int32?
  /// Bytes to send are `output[outputOffset...]`.
  final var output: [UInt8] = []
  final var outputOffset = 0

  /// What the peer watches: `nil` when it does not watch, `[]` for every channel.
  final var patterns: [ChannelPattern]? = nil
  /// While the peer is behind (its output was over `Subscriptions.eventHighWater`): the number
  /// of the first event it has not been sent; what it missed waits in the `EventBacklog`.
  final var behindFrom: UInt64?
  /// Do-not-disturb changed while the output was congested: its latest state is owed.
  final var mergedDND = false
  /// The number of events staged in this turn when the peer began watching: it gets only the
  /// later ones (its `WATCH` snapshot already shows the earlier ones).
  final var watchedFromEvent = 0

  /// Whether the peer changed, or read, state this turn that is not saved yet: if the commit
  /// fails, it is closed without its replies.
  final var dependsOnTurn = false
  /// Whether it waits in the outbox for the end of the turn.
  final var queuedForSend = false
  /// The peer sent end-of-file or asked to `QUIT`: close once the output is sent.
  final var closeAfterFlush = false
  final var closed = false

  /// The output buffer kept once everything is sent: a request/response client's replies fit,
  /// so its buffer serves every turn; a bigger one (a watcher's during a burst, a long `LIST`)
  /// is freed, so that a thousand watchers do not each hold their largest burst.
  static let keptOutputCapacity = 4 << 10

  init(id: Int, pid: Int32?) {
    self.id = id
    self.pid = pid
  }

  /// Bytes queued but not yet sent.
  final var pendingOutput: Int { output.count - outputOffset }

  /// Everything was sent: empties the output, freeing its buffer when it is larger than
  /// `keptOutputCapacity`. Returns the bytes freed.
  final func outputSent() -> Int {
    outputOffset = 0
    let capacity = output.capacity
    guard capacity > Peer.keptOutputCapacity else {
      output.removeAll(keepingCapacity: true)
      return 0
    }
    output = []
    return capacity
  }

  /// Part of the output was sent: once the sent bytes are at least as many as those still
  /// waiting, they are dropped from the front, so the buffer holds at most twice what waits
  /// rather than everything sent since it last drained.
  final func outputPartlySent() {
    guard outputOffset > Peer.keptOutputCapacity, outputOffset >= pendingOutput else { return }
    output.removeFirst(outputOffset)
    outputOffset = 0
  }

  final var isWatching: Bool { patterns != nil }

  /// Whether events merged while it was behind, or do-not-disturb's latest state, are owed:
  /// otherwise `Subscriptions.appendMergedEvents` has nothing to append, and is not called.
  final var owesMergedEvents: Bool { behindFrom != nil || mergedDND }

  /// Whether a change of `name` is pushed to this peer.
  @inline(__always)
  final func watches(_ name: ChannelName) -> Bool {
    guard let patterns else { return false }
    if patterns.isEmpty { return true }
    return patterns.contains { $0.matches(name) }  // borrows each pattern; a `for` loop copied it
  }

  /// Drops everything not sent yet (a peer closed without its replies).
  final func discardOutput() {
    output = []
    outputOffset = 0
  }
}
