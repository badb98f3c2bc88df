import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// The one place output leaves the daemon: at the end of each turn, after the commit, every
/// connection in the core's `SendQueue` that owes a reply, and as many others as the turn's
/// `sendingMicroseconds` allow, is sent its output (one `send` each while the socket takes
/// it). A connection whose socket is full waits for `EPOLLOUT`, which only queues it again for
/// the next turn's sending; one the budget did not reach stays queued for the next turn, which
/// then begins without waiting (`ConnectionReader.turnEnded`).
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

  /// How long one turn may spend sending to connections without a reply (watchers whose output
  /// is events), in microseconds, before it leaves the rest to the next turn. A `send` to a
  /// reading watcher costs from a few microseconds (one event) to several times that (a
  /// burst's lines), so a turn that reached a thousand busy watchers kept every other client,
  /// a new one included, waiting for all of them. Timed rather than counted: what a client
  /// waits for is time, and a count small enough for a burst's sends would split the cheap
  /// fan-out of one change over several turns (BENCHMARKS.md, "A turn's send budget").
  static let sendingMicroseconds: UInt64 = 2000
  /// The clock is read once every so many sends: a send costs far more than a reading of it.
  static let sendsPerClockReading = 16

  /// Whether sending has a budget: not in the last turn at shutdown, which sends everything
  /// the sockets take before the connections close.
  var budgeted = true

  /// What a closed connection frees besides its buffers, as the `HeapTrimmer` counts it: the
  /// connection and what the daemon keeps for it (subscriptions, poll entry, merged events),
  /// as measured for idle watchers (BENCHMARKS.md, "Memory", scenario 4). Counted so, watchers
  /// that each sent one short line still make a trim due when many of them leave.
  static let connectionFootprint = 4096

  /// `connection` is closed: its buffers and the rest of its footprint are freed with it.
  func closed(_ connection: Connection) {
    heap.released(connection.output.capacity + connection.input.storageCapacity + Outbox.connectionFootprint)
  }

  /// Sends the output of every queued connection that owes a reply and of as many others as
  /// `sendingMicroseconds` allow (when `budgeted`), and leaves the rest queued for the next
  /// turn (a debug line says when a turn begins to carry some over). A watcher whose output
  /// drained gets the events it is owed since it fell behind (only when it owes some) and is
  /// sent to again. A connection whose output is all sent goes to `server.drained`, one whose
  /// peer is gone is closed.
  func sendAll(_ queue: SendQueue<Connection>, for server: Server) {
    let deadline = Environment.monotonicMicroseconds + Outbox.sendingMicroseconds
    let budgeted = budgeted
    var sends = 0
    func budget() -> Bool {
      sends += 1
      return !budgeted || sends % Outbox.sendsPerClockReading != 0 || Environment.monotonicMicroseconds < deadline
    }
    let carriedBefore = queue.carriedCount
    defer {
      if queue.carriedCount > 0 && carriedBefore == 0 {
        logger.debug(
          "Sent to \(sends - 1) connections without a reply this turn; \(queue.carriedCount) more wait for the next.")
      }
    }
    queue.drain(while: budget) { connection in
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
