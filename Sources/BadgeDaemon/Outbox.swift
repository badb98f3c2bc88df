import BadgeCore
import BadgeServer
import BadgeSystem

/// The one place output leaves the daemon: at the end of each turn, after the commit, every
/// connection in the core's `SendQueue` is sent its output (one `send` each while the socket
/// takes it). A connection whose socket is full waits for `EPOLLOUT`, which only queues it
/// again for the next turn's sending.
///
/// Output buffers freed when they drain or their connection closes are reported to the
/// `HeapTrimmer`, which gives the memory back to the kernel once a burst is over.
final class Outbox {
  private let logger: Logger
  let heap: HeapTrimmer

  init(loop: EventLoop, logger: Logger) throws(SystemError) {
    self.logger = logger
    heap = try HeapTrimmer(loop: loop)
    heap.trimmed = { [logger] in logger.debug("Gave the heap's free memory back to the kernel (malloc_trim).") }
  }

  /// What a closed connection frees besides its buffers, as the `HeapTrimmer` counts it: the
  /// connection and what the daemon keeps for it (subscriptions, poll entry, merged events),
  /// as measured for idle watchers (BENCHMARKS.md, "Memory", scenario 4). Counted so, watchers
  /// that each sent one short line still make a trim due when many of them leave.
  static let connectionFootprint = 4096

  /// `connection` is closed: its buffers and the rest of its footprint are freed with it.
  func closed(_ connection: Connection) {
    heap.released(connection.output.capacity + connection.input.storageCapacity + Outbox.connectionFootprint)
  }

  /// Sends every queued connection's output. A watcher whose output drained gets the events it
  /// is owed since it fell behind (only when it owes some) and is sent to again. A connection
  /// whose output is all sent goes to `server.drained`, one whose peer is gone is closed.
  func sendAll(_ queue: SendQueue<Connection>, for server: Server) {
    queue.drain { connection in
      guard !connection.closed else { return }
      var done = false
      let before = connection.pendingOutput
      repeat {
        do {
          done = try connection.send()
          if done { heap.released(connection.outputSent()) }
        } catch {
          logger.debug("Client \(connection.id): write failed: \(error), closing.")
          server.close(connection)
          break
        }
      } while done && connection.owesMergedEvents && server.core.appendMergedEvents(to: connection)
      if connection.closed { return }
      server.timeouts.sent(connection, progressed: done || connection.pendingOutput < before)
      if done { server.drained(connection) }
      connection.armEvents()
    }
  }
}
