import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// The server's core as the daemon runs it: on its `Connection`s.
typealias DaemonCore = ServerCore<Connection>

/// The daemon's socket server: the sockets and timers around the server's core, and the one
/// owner of its parts, which reach each other through it.
///
/// A turn: the requests of every ready connection are read and carried out by the core
/// (`ConnectionReader`, one poll-set callback, within each connection's allowance), as are bus
/// signals and timers; then the post handler ends the turn (the loop calls it after a turn of
/// clients, sd-event after a turn of its sources): the core commits the turn's changes and
/// publishes their events, the `Outbox` sends every reply and event, and the timers are armed
/// for the deadlines the core keeps. Nothing is sent before the commit, and nothing is read
/// while the turn ends (`Turn` asserts both in debug builds).
final class Server: ClientTransport {
  let loop: EventLoop
  let core: DaemonCore
  let logger: Logger
  var store: Store { core.store }

  private let listener: FileDescriptor
  private var acceptor: Acceptor?
  private(set) var timeouts: ConnectionTimeouts!
  private(set) var reader: ConnectionReader!
  let outbox: Outbox
  private var postSource: EventSource?
  /// Armed at the end of every turn for the earliest pulse window end, do-not-disturb's timed
  /// end and the next repair of a failed change log, as the core knows them.
  private var pulseTimer: TimerSource?
  private var dndTimer: TimerSource?
  private var repairTimer: TimerSource?
  /// Scheduled when the bridge's connection closes: a turn of its own makes every mirrored
  /// channel stale (a connection may close while a turn ends, when nothing may change).
  private var bridgeGoneTimer: TimerSource?
  /// Armed at the end of every turn for when the core's repeated warnings have a count to
  /// report (`RepeatedWarnings.nextFlush`).
  private var warningsTimer: TimerSource?
  /// The log's output, when it is the operating system's: watched for room after a turn in
  /// which it dropped lines.
  private let logOutput: LogOutput?

  private var connections: [Int: Connection] = [:]
  private var nextConnectionID = 1

  init(loop: EventLoop, config: DaemonConfig, listener: FileDescriptor, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.listener = listener
    self.logger = logger
    logOutput = logger.output
    core = DaemonCore(config: config, clock: LoopClock(loop: loop), logger: logger)
    outbox = try Outbox(loop: loop, logger: logger)
    reader = try ConnectionReader(server: self)
    timeouts = try ConnectionTimeouts(server: self)
    acceptor = try Acceptor(server: self, listener: listener)
    postSource = try loop.addPost { [unowned self] in endTurn() }
    pulseTimer = try loop.addTimer { [unowned self] in core.expirePulses() }
    dndTimer = try loop.addTimer { [unowned self] in core.expireDND() }
    repairTimer = try loop.addTimer(accuracy: 100_000) { [unowned self] in core.tryRepair() }
    bridgeGoneTimer = try loop.addTimer { [unowned self] in core.bridgeWentAway() }
    warningsTimer = try loop.addTimer(accuracy: 100_000) { [unowned self] in core.flushWarnings() }
  }

  /// The number of connected clients and of watchers, for status lines.
  var clientCount: Int { connections.count }
  var watcherCount: Int { core.watcherCount }

  /// Stops accepting new clients (shutdown).
  func stopAccepting() {
    acceptor?.stop()
    acceptor = nil
  }

  /// Ends the turn, sends what can be sent (whatever the send budget) and closes every
  /// connection (shutdown).
  func closeAll() {
    outbox.budgeted = false
    endTurn()
    for connection in Array(connections.values) { close(connection) }
  }

  /// Takes a connection the acceptor admitted.
  func admit(_ fd: FileDescriptor, _ peer: UnixSocket.PeerCredentials) throws(SystemError) {
    let connection = Connection(id: nextConnectionID, fd: fd, pid: peer.pid)
    nextConnectionID += 1
    try reader.watch(connection)
    connections[connection.id] = connection
    logger.debug("Client \(connection.id) connected (pid \(peer.pid)).", [.clientPID(peer.pid)])
    reader.readAccepted(connection)
  }

  /// Once per loop turn, before sleeping (and once more at shutdown): the core commits the
  /// turn's changes, publishes their events and has every reply and event sent; then the
  /// timers are armed for the core's deadlines and for the counts of repeated warnings, and
  /// a log that dropped lines is watched for room to say so.
  func endTurn() {
    let timed = logger.level >= .debug
    let began = timed ? core.turn.began ?? loop.now : 0
    core.endTurn(self)
    pulseTimer?.arm(at: store.nextPulseDeadline)
    dndTimer?.arm(at: store.nextDNDDeadline)
    repairTimer?.arm(at: core.policy.nextRepair)
    // `nextFlush` is a pass over the reasons; with none remembered and no timer armed (nearly
    // every turn) there is nothing to look at.
    if core.warnings.reasonCount > 0 || warningsTimer?.deadline != nil {
      warningsTimer?.arm(at: core.warnings.nextFlush)
    }
    logOutput?.watchForRoom(on: loop)
    reader.turnEnded(watchers: core.watcherCount, outputCarried: core.sendQueue.carriedCount > 0)
    if timed, let turn = turnTimer.ended(began: began) {
      logger.debug("Longest turn so far: \(turn.cpu) µs of CPU time, \(turn.wall) µs from its start to its end.")
    }
  }

  /// Times the loop's turns at the debug level (`TurnTimer`).
  private var turnTimer = TurnTimer()

  /// Sends the turn's output (the core calls it at the end of the turn).
  func send(_ queue: SendQueue<Connection>) {
    outbox.sendAll(queue, for: self)
  }

  /// All of `connection`'s output is sent: close it if it asked to, else let it read again.
  func drained(_ connection: Connection) {
    if connection.closeAfterFlush {
      close(connection)
    } else if connection.readPaused {
      reader.resume(connection)
    }
  }

  /// `[limits] line_timeout_ms` passed inside a line: `ERR timeout`, then the connection goes
  /// once that is sent. Nothing more of it is read.
  func lineTimedOut(_ connection: Connection) {
    let limit = core.config.limits.lineTimeoutMs
    logger.debug("Client \(connection.id): no end of line within \(limit) ms, closing.")
    ReplyEncoder.appendError(
      ProtocolError(
        .timeout,
        "A line was begun and not finished within \(limit) ms ([limits] line_timeout_ms); closing the connection"),
      to: &connection.output)
    connection.closeAfterFlush = true
    connection.readPaused = true
    core.sendQueue.addReply(connection)
    connection.armEvents()
  }

  /// `[limits] send_timeout_ms` passed with output waiting and none of it read: the peer is
  /// stuck (or gone without saying), and holds memory; it is disconnected, saying why.
  func sendTimedOut(_ connection: Connection) {
    let pid = connection.pid.map { " (pid \($0))" } ?? ""
    core.warn(
      .sendTimeout,
      "Client \(connection.id)\(pid) has read none of its \(connection.pendingOutput) bytes of pending output for \(core.config.limits.sendTimeoutMs) ms ([limits] send_timeout_ms); disconnecting it.",
      connection.pid.map { [.clientPID($0)] } ?? [])
    close(connection)
  }

  func close(_ connection: Connection) {
    guard !connection.closed else { return }
    timeouts.forget(connection)
    connection.closed = true
    reader.forget(connection)
    connection.fd.close()
    connections[connection.id] = nil
    core.closed(connection)
    if core.bridgeLeftMirrors { bridgeGoneTimer?.schedule(at: loop.now) }
    outbox.closed(connection)
    logger.debug("Client \(connection.id) disconnected.")
  }
}
