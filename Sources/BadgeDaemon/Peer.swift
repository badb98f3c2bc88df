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

  init(id: Int, pid: Int32?) {
    self.id = id
    self.pid = pid
    output.reserveCapacity(4096)
  }

  /// Bytes queued but not yet sent.
  final var pendingOutput: Int { output.count - outputOffset }

  final var isWatching: Bool { patterns != nil }

  /// Whether a change of `name` is pushed to this peer.
  @inline(__always)
  final func watches(_ name: ChannelName) -> Bool {
    guard let patterns else { return false }
    if patterns.isEmpty { return true }
    for pattern in patterns where pattern.matches(name) { return true }
    return false
  }

  /// Drops everything not sent yet (a peer closed without its replies).
  final func discardOutput() {
    output.removeAll()
    outputOffset = 0
  }
}
