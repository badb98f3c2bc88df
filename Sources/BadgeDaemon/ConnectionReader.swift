import BadgeCore
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// Reads connections' requests and hands each line to the server's core.
///
/// Every connection is in the loop's `PollSet` (the epoll set the loop waits on, sd-event's own
/// descriptor beside them): one callback serves every client the turn's one `epoll_wait` found
/// ready, then the loop ends the turn once for all of them (its post handlers, `Server.endTurn`).
/// The listening socket is in the same set, so that a turn that accepts makes no trip through
/// sd-event either (`Acceptor`).
/// A turn bounds what one connection may do: at most `readBudget`
/// bytes read and `lineAllowance` lines carried out, so that a client pipelining a flood cannot
/// make a turn long (each line may be an event for every watcher) and keep the others, new
/// clients included, waiting. A connection with lines left over is served again next turn,
/// before the clients that became ready since.
///
/// Back-pressure: a connection whose unsent output reaches `[limits] max_unsent_bytes` is not
/// read (nor are its buffered lines carried out) until the outbox has sent it. Nor is one with
/// a long reply under way (`Peer.isReplying`): once its output has drained, the next turn
/// appends the reply's next chunk first, and carries out later lines only after its end. Lines
/// that waited are carried out in a later turn (the poll set serves it whatever the sockets
/// say), never from inside the end of the turn (asserted in debug builds).
final class ConnectionReader {
  /// Reads at most this much from one connection per turn.
  static let readBudget = 256 << 10
  /// The most lines one connection may have carried out in one turn.
  static let maxLinesPerTurn = 1024
  /// The fewest, however many watch: a writer always makes progress.
  static let minLinesPerTurn = 16
  /// About how many event lines one turn may copy to watchers' output, summed over its
  /// connections' allowances: the allowance shrinks as watchers grow, so that a turn (and the
  /// wait of every other client) stays short under a burst of changes fanned out to many.
  static let fanOutPerTurn = 64 << 10

  /// The owner, which outlives it (a plain reference: it is reached on every line).
  private unowned(unsafe) let server: Server
  private let core: DaemonCore
  private var poll: PollSet!
  /// The connections by file descriptor number, for the poll set's reports.
  private var byDescriptor: [Connection?] = []
  /// Connections to serve next turn whatever their socket says: reading resumed after their
  /// output drained, or lines were left over when their allowance ran out.
  private var waiting: [Connection] = []
  /// The list being served now; swapped with `waiting` so neither is copied.
  private var serving: [Connection] = []
  /// Counts turns (`turnEnded`), so that each connection's allowance is renewed once a turn.
  private var turn: UInt64 = 1
  /// Lines each connection may have carried out this turn.
  private(set) var lineAllowance = ConnectionReader.maxLinesPerTurn
  /// The listening socket and what accepts on it: in the poll set with the clients, so that a
  /// turn that accepts makes the one `epoll_wait` of any turn of clients.
  private var listener: (fd: FileDescriptor, accept: () -> Void)?

  init(server: Server) throws(SystemError) {
    self.server = server
    core = server.core
    poll = try PollSet(loop: server.loop) { [unowned self] in serveReady() }
  }

  /// The lines one connection may have carried out per turn while `watchers` watch.
  static func lineAllowance(watchers: Int) -> Int {
    min(maxLinesPerTurn, max(minLinesPerTurn, fanOutPerTurn / max(1, watchers)))
  }

  /// Watches the listening socket `fd`: `accept` runs in the turn that finds it ready, before
  /// the clients after it.
  func watchListener(_ fd: FileDescriptor, _ accept: @escaping () -> Void) throws(SystemError) {
    try poll.add(fd, events: .readable)
    listener = (fd, accept)
  }

  /// Stops (or resumes) watching the listening socket, which stays in the poll set.
  func listen(_ on: Bool) {
    guard let listener else { return }
    poll.modify(listener.fd, events: on ? .readable : [])
  }

  /// Stops watching the listening socket for good (shutdown).
  func forgetListener() {
    guard let listener else { return }
    poll.remove(listener.fd)
    self.listener = nil
  }

  /// Starts reading `connection` (and waiting for room to write, when it has output waiting).
  func watch(_ connection: Connection) throws(SystemError) {
    let fd = Int(connection.fd.rawValue)
    try poll.add(connection.fd, events: .readable)
    connection.poll = poll
    if fd >= byDescriptor.count {
      byDescriptor.append(contentsOf: repeatElement(nil, count: fd + 1 - byDescriptor.count))
    }
    byDescriptor[fd] = connection
  }

  /// Reads what a connection just accepted has sent already: a client that sends as soon as it
  /// is connected (most do) is then answered in the turn that accepted it rather than the
  /// next, which under load is a whole turn sooner; one that has not sent yet costs one read
  /// that says `EAGAIN`.
  func readAccepted(_ connection: Connection) {
    read(connection)
  }

  /// Stops reading `connection`, before its descriptor is closed.
  func forget(_ connection: Connection) {
    guard connection.poll != nil else { return }
    connection.poll = nil
    poll.remove(connection.fd)
    let fd = Int(connection.fd.rawValue)
    if fd < byDescriptor.count, byDescriptor[fd] === connection { byDescriptor[fd] = nil }
  }

  /// The turn ended: every connection's allowance is renewed, sized for the number of
  /// `watchers` now, and the connections waiting are served next turn, first. That turn begins
  /// without waiting when connections wait, or when the turn's send budget left output to it
  /// (`outputCarried`), which the end of that turn sends first.
  func turnEnded(watchers: Int, outputCarried: Bool) {
    turn &+= 1
    lineAllowance = ConnectionReader.lineAllowance(watchers: watchers)
    if !waiting.isEmpty || outputCarried { poll.serveNextTurn() }
  }

  /// The connection's output drained: it is read again in a turn of its own.
  func resume(_ connection: Connection) {
    connection.readPaused = false
    serveNextTurn(connection)
  }

  /// Serves `connection` in the next turn: the poll set is told so when this turn ends
  /// (`turnEnded`), and that turn serves the waiting connections before the ready ones.
  private func serveNextTurn(_ connection: Connection) {
    guard !connection.queuedForInput else { return }
    connection.queuedForInput = true
    waiting.append(connection)
  }

  /// Some clients are ready: the ones that waited from an earlier turn first, then every one
  /// the poll set reports.
  private func serveReady() {
    serveWaiting()
    poll.ready { fd, events in
      if let listener, fd == listener.fd.rawValue { return listener.accept() }
      guard Int(fd) < byDescriptor.count, let connection = byDescriptor[Int(fd)] else { return }
      ready(connection, events)
    }
  }

  private func ready(_ connection: Connection, _ events: IOEvents) {
    if events.contains(.writable) {
      core.sendQueue.add(connection)  // sent at the end of the turn, after the commit
      connection.armEvents()
    }
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
      read(connection)
    }
  }

  private func serveWaiting() {
    guard !waiting.isEmpty else { return }
    swap(&waiting, &serving)
    defer { serving.removeAll(keepingCapacity: true) }
    for connection in serving {
      connection.queuedForInput = false
      if !connection.closed { read(connection) }
    }
  }

  private func read(_ connection: Connection) {
    assert(core.turn.phase == .handling, "nothing is read while the turn ends")
    if connection.turn != turn {
      connection.turn = turn
      connection.linesLeft = lineAllowance
    }
    processLines(connection)
    var total = 0
    reading: while total < ConnectionReader.readBudget && connection.linesLeft > 0 && !connection.readPaused
      && !connection.closed && !connection.inputEnded
    {
      let (result, filled) = connection.input.readOnce(from: connection.fd)
      switch result {
      case .failure(let failure):
        server.logger.debug("Client \(connection.id): read failed: \(failure), closing.")
        server.close(connection)
        return
      case .success(.endOfFile):
        connection.inputEnded = true
      case .success(.wouldBlock):
        break reading
      case .success(.processed(let n)):
        if n == 0 { break reading }  // input buffer full: lines wait
        total += n
        processLines(connection)
        // A read that did not fill its room took all the socket held: another would only
        // say EAGAIN. The level-triggered poll set reports the socket again if more came.
        if !filled { break reading }
        continue reading
      }
      processLines(connection)
    }
    if connection.linesLeft == 0 && !connection.closed && !connection.readPaused {
      serveNextTurn(connection)  // lines or input may be left: next turn, whatever the socket says
      return
    }
    finishIfEnded(connection)
  }

  /// Carries out complete lines while the connection's allowance lasts, unless the output is
  /// over the high-water mark or a long reply is under way: then the rest waits, and reading
  /// pauses until the outbox has sent the output. A reply under way gets its next chunk
  /// first (once a turn: reading stays paused while its chunk is sent).
  private func processLines(_ connection: Connection) {
    guard !connection.closed, !connection.closeAfterFlush, !connection.readPaused, connection.linesLeft > 0
    else { return }
    if connection.isReplying && !continueReply(connection) { return }
    let highWater = core.config.limits.maxUnsentBytes
    var lines = 0
    connection.input.forEachFrame { frame in
      lines += 1
      switch frame {
      case .line(let line): core.handleLine(line, from: connection)
      case .tooLong:
        ReplyEncoder.appendError(
          ProtocolError(
            .lineTooLong, "Line is longer than \(ProtocolInfo.maxLineLength) bytes; the rest of it was discarded"),
          to: &connection.output)
      }
      return lines < connection.linesLeft && connection.pendingOutput < highWater && !connection.closeAfterFlush
        && !connection.isReplying
    }
    connection.linesLeft -= lines
    if connection.pendingOutput > 0 { core.sendQueue.add(connection) }
    if connection.pendingOutput >= highWater || connection.isReplying {
      connection.readPaused = true
      connection.armEvents()
    }
    // Paused, the connection waits on us, not we on it; ended, it goes once its output is sent.
    let waiting = connection.readPaused || connection.closeAfterFlush || connection.inputEnded
    server.timeouts.read(connection, insideLine: !waiting && connection.input.isInsideLine, progressed: lines > 0)
  }

  /// Appends the next chunk of the connection's reply under way. Returns whether the reply
  /// ended, so that its later lines may be carried out; else reading stays paused until the
  /// chunk is sent.
  @inline(never)
  private func continueReply(_ connection: Connection) -> Bool {
    core.continueReply(connection)
    guard connection.isReplying else { return true }
    core.sendQueue.add(connection)
    connection.readPaused = true
    connection.armEvents()
    server.timeouts.read(connection, insideLine: false, progressed: false)
    return false
  }

  /// After end-of-file, once every line that came before it was carried out: close when the
  /// output is sent.
  private func finishIfEnded(_ connection: Connection) {
    guard connection.inputEnded, !connection.readPaused, !connection.closed else { return }
    connection.closeAfterFlush = true
    if connection.pendingOutput == 0 { server.close(connection) } else { core.sendQueue.add(connection) }
  }
}
