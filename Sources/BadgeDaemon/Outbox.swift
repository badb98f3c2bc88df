import BadgeCore
import BadgeSystem

/// The one place output leaves the daemon: once per turn, after the commit, every queued
/// connection's output is sent (one `send` each while the socket takes it). A connection whose
/// socket is full waits for `EPOLLOUT`, which only queues it again for the next turn's sending.
///
/// Output buffers freed when they drain or their connection closes are reported to the
/// `HeapTrimmer`, which gives the memory back to the kernel once a burst is over.
final class Outbox {
  private var queue: [Connection] = []
  private var logger: Logger
  let heap: HeapTrimmer
  /// Called after each send with whether the socket took any bytes (for the send timeout).
  var sent: (Connection, _ progressed: Bool) -> Void = { _, _ in }

  init(loop: EventLoop, logger: Logger) throws(SystemError) {
    self.logger = logger
    heap = try HeapTrimmer(loop: loop)
    heap.trimmed = { [logger] in logger.debug("Gave the heap's free memory back to the kernel (malloc_trim).") }
    queue.reserveCapacity(64)
  }

  /// What a closed connection frees besides its buffers, as the `HeapTrimmer` counts it: the
  /// connection and what the daemon keeps for it (subscriptions, poll entry, merged events).
  /// 1,000 idle `WATCH *` watchers held 4.1 MB over the daemon's figure without them, about
  /// 4 KiB each; counted so, their leaving is trimmed as it was while each still had a 4 KiB
  /// input buffer (without it: 20.5 MB after they left instead of 16.8 MB; BENCHMARKS.md).
  static let connectionFootprint = 4096

  /// `connection` is closed: its buffers and the rest of its footprint are freed with it.
  func closed(_ connection: Connection) {
    heap.released(connection.output.capacity + connection.input.storageCapacity + Outbox.connectionFootprint)
  }

  /// Queues `connection` for the end of this turn.
  @inline(__always)
  func queue(_ connection: Connection) {
    guard !connection.queuedForSend, !connection.closed else { return }
    connection.queuedForSend = true
    queue.append(connection)
  }

  /// Sends every queued connection's output. A watcher whose output drained gets its merged
  /// events (`appendMerged` appends them, returning whether it did; called only when some are
  /// owed) and is sent to again.
  /// Calls `drained` for a connection whose output is all sent, `close` for one whose peer is
  /// gone.
  func sendAll(
    appendMerged: (Connection) -> Bool, drained: (Connection) -> Void, close: (Connection) -> Void
  ) {
    var i = 0
    while i < queue.count {  // `close` and `drained` never queue, but stay safe if they do
      let connection = queue[i]
      i += 1
      connection.queuedForSend = false
      guard !connection.closed else { continue }
      var done = false
      let before = connection.pendingOutput
      repeat {
        do {
          done = try connection.send()
          if done { heap.released(connection.outputSent()) }
        } catch {
          logger.debug("Client \(connection.id): write failed: \(error), closing.")
          close(connection)
          break
        }
      } while done && connection.owesMergedEvents && appendMerged(connection)
      if connection.closed { continue }
      sent(connection, done || connection.pendingOutput < before)
      if done { drained(connection) }
      connection.armEvents()
    }
    queue.removeAll(keepingCapacity: queue.capacity <= 4096)
  }
}
