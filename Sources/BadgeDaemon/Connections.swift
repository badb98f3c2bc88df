import BadgeCore
import BadgeServer
import BadgeSystem

/// Every connection of the server, by descriptor, in the loop's `PollSet` (the epoll set the
/// loop waits on, sd-event's own descriptor beside them), with the listening socket: one
/// callback serves every client the turn's one `epoll_wait` found ready, then the loop ends the
/// turn once for all of them (its post handlers, `Server.endTurn`). The listening socket is in
/// the same set, so that a turn that accepts makes no trip through sd-event either (`Acceptor`).
///
/// It hands each connection its events from the poll set (`readable`, `writable`), and serves
/// first, in the next turn, those that paused until then (`servedNextTurn`): lines left beyond
/// their allowance, or reading resumed after their output drained. It keeps the turn's line
/// allowance, and hands each connection it admits what it works with.
final class Connections {
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

  /// The lines one connection may have carried out per turn while `watchers` watch.
  static func lineAllowance(watchers: Int) -> Int {
    min(maxLinesPerTurn, max(minLinesPerTurn, fanOutPerTurn / max(1, watchers)))
  }

  private let poll: PollSet
  private let deadlines: Deadlines
  private let heap: HeapTrimmer
  private let core: DaemonCore
  /// The connections by file descriptor number, for the poll set's reports.
  private var byDescriptor: [Connection?] = []
  /// How many connections are open.
  private(set) var count = 0
  private var nextID = 1
  /// Connections to serve next turn whatever their socket says (they paused until then).
  private var waiting: [Connection] = []
  /// The list being served now; swapped with `waiting` so neither is copied.
  private var serving: [Connection] = []
  /// Counts turns (`turnEnded`), so that each connection's allowance is renewed once a turn.
  private(set) var turn: UInt64 = 1
  /// Lines each connection may have carried out this turn.
  private(set) var lineAllowance = Connections.maxLinesPerTurn
  /// The listening socket and what accepts on it.
  private var listener: (fd: FileDescriptor, accept: () -> Void)?

  /// The connections of `loop`'s poll set, which it makes, whose lines `core` carries out.
  init(loop: EventLoop, core: DaemonCore, deadlines: Deadlines, heap: HeapTrimmer) throws(SystemError) {
    self.core = core
    self.deadlines = deadlines
    self.heap = heap
    poll = try PollSet(loop: loop)
    poll.handler = { [unowned self] in serveReady() }
  }

  /// Takes a connection on `fd` (of process `pid`, when known): watches it, and reads at once
  /// what it has sent already. A client that sends as soon as it is connected (most do) is then
  /// answered in the turn that accepted it rather than the next, which under load is a whole
  /// turn sooner; one that has not sent yet costs one read that says `EAGAIN`.
  ///
  /// - Throws: `SystemError` when the poll set cannot watch it; the caller closes `fd`.
  @discardableResult
  func admit(_ fd: FileDescriptor, pid: Int32?) throws(SystemError) -> Connection {
    try poll.add(fd, events: .readable)
    let connection = Connection(
      id: nextID, fd: fd, pid: pid, core: core, connections: self, poll: poll, deadlines: deadlines, heap: heap)
    nextID += 1
    let index = Int(fd.rawValue)
    if index >= byDescriptor.count {
      byDescriptor.append(contentsOf: repeatElement(nil, count: index + 1 - byDescriptor.count))
    }
    byDescriptor[index] = connection
    count += 1
    core.logger.debug(
      "Client \(connection.id) connected\(pid.map { " (pid \($0))" } ?? "").", pid.map { [.clientPID($0)] } ?? [])
    connection.handle(.readable)
    return connection
  }

  /// Takes a connection that closes out of the poll set (before its descriptor is closed) and
  /// out of the core. When it was the bridge, a turn of its own makes every mirrored channel
  /// stale (the connection may close while a turn ends, when nothing may change).
  func remove(_ connection: Connection) {
    do throws(SystemError) {
      try poll.remove(connection.fd)
    } catch {
      core.logger.warning("Client \(connection.id): \(error), ignoring.")
    }
    let index = Int(connection.fd.rawValue)
    if index < byDescriptor.count, byDescriptor[index] === connection {
      byDescriptor[index] = nil
      count -= 1
    }
    core.closed(connection)
    if core.bridgeLeftMirrors { deadlines.set(bridgeGone, at: 0) }
  }

  /// Due at once when the bridge's connection closed: the turn that makes the mirrors stale.
  private lazy var bridgeGone = deadlines.slot { [unowned self] in core.bridgeWentAway() }

  /// Every open connection, by descriptor number.
  var open: [Connection] { byDescriptor.compactMap { $0 } }

  /// Closes every connection (shutdown).
  func closeAll() {
    for connection in open { connection.handle(.closedByServer) }
  }

  /// Serves `connection` first in the next turn: the poll set is told so when this turn ends
  /// (`turnEnded`).
  func serveNextTurn(_ connection: Connection) {
    waiting.append(connection)
  }

  /// The turn ended: every connection's allowance is renewed, sized for the number of
  /// `watchers` now, and the connections waiting are served next turn, first. That turn begins
  /// without waiting when connections wait, or when the turn's send budget left output to it
  /// (`outputCarried`), which the end of that turn sends first.
  func turnEnded(watchers: Int, outputCarried: Bool) {
    turn &+= 1
    lineAllowance = Connections.lineAllowance(watchers: watchers)
    if !waiting.isEmpty || outputCarried { poll.serveNextTurn() }
  }

  // MARK: - The listening socket

  /// Watches the listening socket `fd`: `accept` runs in the turn that finds it ready, before
  /// the clients after it.
  func watchListener(_ fd: FileDescriptor, _ accept: @escaping () -> Void) throws(SystemError) {
    try poll.add(fd, events: .readable)
    listener = (fd, accept)
  }

  /// Stops (or resumes) watching the listening socket, which stays in the poll set.
  ///
  /// - Throws: `SystemError` when the poll set cannot change it.
  func listen(_ on: Bool) throws(SystemError) {
    guard let listener else { return }
    try poll.modify(listener.fd, events: on ? .readable : [])
  }

  /// Stops watching the listening socket for good (shutdown).
  func forgetListener() {
    guard let listener else { return }
    self.listener = nil
    do throws(SystemError) {
      try poll.remove(listener.fd)
    } catch {
      core.logger.warning("\(error), ignoring.")
    }
  }

  // MARK: - A turn

  /// Some clients are ready: the ones that waited from an earlier turn first, then every one
  /// the poll set reports.
  private func serveReady() {
    serveWaiting()
    poll.ready { fd, events in
      if let listener, fd == listener.fd.rawValue { return listener.accept() }
      guard Int(fd) < byDescriptor.count, let connection = byDescriptor[Int(fd)] else { return }
      if events.contains(.writable) { connection.handle(.writable) }
      guard connection.state != .closed else { return }  // its poll events could not be changed
      if !events.isDisjoint(with: [.readable, .hangUp, .error]) { connection.handle(.readable) }
    }
  }

  private func serveWaiting() {
    guard !waiting.isEmpty else { return }
    swap(&waiting, &serving)
    defer { serving.removeAll(keepingCapacity: true) }
    for connection in serving { connection.handle(.servedNextTurn) }
  }
}
