import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// The one place output leaves the daemon: at the end of each turn, after the commit, every
/// connection in the core's `SendQueue` that owes a reply, and as many others as the turn's
/// `budget` allows, is sent its output (`Connection.flush`). A connection whose socket is full
/// waits for `EPOLLOUT`, which only queues it again for the next turn's sending; one the budget
/// did not reach stays queued for the next turn, which then begins without waiting
/// (`Connections.turnEnded`).
///
/// It is the core's `ClientTransport`: what the end of a turn sends through, and closes through
/// the clients of a turn that was undone.
final class Outbox: ClientTransport {
  /// How much one turn may spend sending to connections without a reply.
  enum Budget: Equatable {
    /// So many microseconds, the monotonic clock read once every `sendsPerClockReading` sends.
    case time(UInt64)
    /// So many sends (a test's budget: a count is the same on every machine).
    case sends(Int)
    /// Everything the sockets take (the last turn at shutdown, before the connections close).
    case unlimited
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

  private let logger: Logger
  /// What each turn may spend; the daemon's is `time(sendingMicroseconds)`.
  var budget: Budget

  init(logger: Logger, budget: Budget = .time(Outbox.sendingMicroseconds)) {
    self.logger = logger
    self.budget = budget
  }

  /// Sends the output of every queued connection that owes a reply and of as many others as
  /// the `budget` allows, and leaves the rest queued for the next turn (a debug line says when
  /// a turn begins to carry some over).
  func send(_ queue: SendQueue<Connection>) {
    let budget = budget
    var deadline: UInt64 = 0
    if case .time(let microseconds) = budget { deadline = Environment.monotonicMicroseconds + microseconds }
    var sends = 0
    func allowsOneMore() -> Bool {
      sends += 1
      switch budget {
      case .time:
        return sends % Outbox.sendsPerClockReading != 0 || Environment.monotonicMicroseconds < deadline
      case .sends(let most): return sends <= most
      case .unlimited: return true
      }
    }
    let carriedBefore = queue.carriedCount
    defer {
      if queue.carriedCount > 0 && carriedBefore == 0 {
        logger.debug(
          "Sent to \(sends - 1) connections without a reply this turn; \(queue.carriedCount) more wait for the next.")
      }
    }
    queue.drain(while: allowsOneMore) { $0.flush() }
  }

  /// The turn `connection` depended on was undone: it goes, without its replies.
  func close(_ connection: Connection) {
    connection.handle(.closedByServer)
  }
}
