import BadgeCore
import BadgeProtocol
import BadgeSystem

/// Reads connections' requests and hands each line to the executor, with back-pressure: a
/// connection whose unsent output reaches `[limits] max_unsent_bytes` is not read (nor are its
/// buffered lines carried out) until the outbox has sent it. Lines that waited are carried out
/// by a deferred source of their own, never from inside the post source.
final class ConnectionReader {
  /// Reads at most this much from one connection per turn, so one busy client cannot starve
  /// others.
  static let readBudget = 256 << 10

  private let loop: EventLoop
  private let executor: CommandExecutor
  private let outbox: Outbox
  private var logger: Logger
  /// Closes a connection (the server's one way to).
  var close: (Connection) -> Void = { _ in }
  /// Times lines begun and not finished.
  var timeouts: ConnectionTimeouts?
  /// Connections whose reading resumed: read in the deferred source's turn.
  private var resumed: [Connection] = []
  /// The list being read now; swapped with `resumed` so neither is copied.
  private var resuming: [Connection] = []
  private var resumeSource: DeferSource?
  /// Which local day it is, for history; read before each batch of lines, cached until midnight.
  private var dayClock = LocalDayClock()

  init(loop: EventLoop, executor: CommandExecutor, outbox: Outbox, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.executor = executor
    self.outbox = outbox
    self.logger = logger
    resumeSource = try loop.addDefer { [unowned self] in readResumed() }
    resumeSource?.disarm()
  }

  /// Starts reading `connection` (and waiting for room to write, when it has output waiting).
  func watch(_ connection: Connection) throws(SystemError) {
    connection.source = try loop.addIO(fd: connection.fd, events: .readable) {
      [unowned self, unowned connection] events in ready(connection, events)
    }
  }

  /// The connection's output drained: it is read again in a turn of its own.
  func resume(_ connection: Connection) {
    connection.readPaused = false
    guard !connection.queuedForInput else { return }
    connection.queuedForInput = true
    resumed.append(connection)
    resumeSource?.trigger()
  }

  private func ready(_ connection: Connection, _ events: IOEvents) {
    if events.contains(.writable) {
      outbox.queue(connection)  // sent at the end of the turn, after the commit
      connection.armEvents()
    }
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
      read(connection)
    }
  }

  private func readResumed() {
    swap(&resumed, &resuming)
    defer { resuming.removeAll(keepingCapacity: true) }
    for connection in resuming {
      connection.queuedForInput = false
      if !connection.closed { read(connection) }
    }
  }

  private func read(_ connection: Connection) {
    processLines(connection)
    var total = 0
    while total < ConnectionReader.readBudget && !connection.readPaused && !connection.closed
      && !connection.inputEnded
    {
      switch connection.input.read(from: connection.fd) {
      case .failure(let failure):
        logger.debug("Client \(connection.id): read failed: \(failure), closing.")
        close(connection)
        return
      case .success(.endOfFile):
        connection.inputEnded = true
      case .success(.wouldBlock):
        total = ConnectionReader.readBudget
      case .success(.processed(let n)):
        if n == 0 { total = ConnectionReader.readBudget }  // input buffer full: lines wait
        total += n
      }
      processLines(connection)
    }
    finishIfEnded(connection)
  }

  /// Carries out every complete line, unless the output is over the high-water mark: then the
  /// rest waits, and reading pauses until the outbox has sent the output.
  private func processLines(_ connection: Connection) {
    guard !connection.closed, !connection.closeAfterFlush, !connection.readPaused else { return }
    let now = loop.now
    executor.store.today = dayClock.today()  // the local day history counts these requests on
    let highWater = executor.store.config.limits.maxUnsentBytes
    var lines = 0
    connection.input.forEachFrame { frame in
      lines += 1
      switch frame {
      case .line(let line): executor.handleLine(line, from: connection, now: now)
      case .tooLong:
        ReplyEncoder.appendError(
          ProtocolError(.lineTooLong, "Line is longer than \(ProtocolInfo.maxLineLength) bytes; the rest of it was discarded"),
          to: &connection.output)
      }
      return connection.pendingOutput < highWater && !connection.closeAfterFlush
    }
    if connection.pendingOutput > 0 { outbox.queue(connection) }
    if connection.pendingOutput >= highWater {
      connection.readPaused = true
      connection.armEvents()
    }
    // Paused, the connection waits on us, not we on it; ended, it goes once its output is sent.
    let waiting = connection.readPaused || connection.closeAfterFlush || connection.inputEnded
    timeouts?.read(connection, insideLine: !waiting && connection.input.isInsideLine, progressed: lines > 0)
  }

  /// After end-of-file, once every line that came before it was carried out: close when the
  /// output is sent.
  private func finishIfEnded(_ connection: Connection) {
    guard connection.inputEnded, !connection.readPaused, !connection.closed else { return }
    connection.closeAfterFlush = true
    if connection.pendingOutput == 0 { close(connection) } else { outbox.queue(connection) }
  }
}
