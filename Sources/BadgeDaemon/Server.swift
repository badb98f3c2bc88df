import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// The server's core as the daemon runs it: on its `Connection`s.
typealias DaemonCore = ServerCore<Connection>

/// The daemon's socket server: the sockets and the deadlines around the server's core. It makes
/// the parts in the order they need each other, gives each what it uses, and ends every turn.
///
/// A turn: the requests of every ready connection are read and carried out by the core
/// (`Connections`, one poll-set callback; each `Connection` within its allowance), as are bus
/// signals and due deadlines; then the post handler ends the turn (the loop calls it after a
/// turn of clients, sd-event after a turn of its sources): the core commits the turn's changes
/// and publishes their events, the `Outbox` sends every reply and event, and the core's
/// deadlines are put in the table. Nothing is sent before the commit, and nothing is read while
/// the turn ends (`Turn` asserts both in debug builds).
final class Server {
  let core: DaemonCore
  /// Every deadline of the server, on one timer.
  let deadlines: Deadlines
  let connections: Connections
  let outbox: Outbox
  private let loop: EventLoop
  private let logger: Logger
  private var acceptor: Acceptor?
  private var postSource: EventSource?
  /// The core's deadlines, set at the end of every turn: the earliest pulse window end,
  /// do-not-disturb's timed end, the next repair of a failed change log, and when the repeated
  /// warnings have a count to report (`RepeatedWarnings.nextFlush`).
  private let pulses: Deadlines.Slot
  private let dnd: Deadlines.Slot
  private let repair: Deadlines.Slot
  private let warnings: Deadlines.Slot
  /// The log's output, when it is the operating system's: watched for room after a turn in
  /// which it dropped lines.
  private let logOutput: LogOutput?

  /// A server on `loop` for `config`, serving `listener`. The rest is what a test replaces to
  /// drive it by hand: the turn's `clock` (the loop's by default), the `alarm` the deadlines
  /// ring (a timer on the loop), how a connection is taken off the listener (`accept4`), and
  /// what a turn may spend sending.
  init(
    loop: EventLoop, config: DaemonConfig, listener: FileDescriptor, logger: Logger, clock: (any TurnClock)? = nil,
    alarm: (any DeadlineAlarm)? = nil, accept: @escaping Acceptor.Accept = UnixSocket.accept,
    sendBudget: Outbox.Budget = .time(Outbox.sendingMicroseconds)
  ) throws(SystemError) {
    self.loop = loop
    self.logger = logger
    logOutput = logger.output
    let core = DaemonCore(config: config, clock: clock ?? LoopClock(loop: loop), logger: logger)
    self.core = core
    let deadlines: Deadlines
    if let alarm {
      deadlines = Deadlines(turn: core.turn, alarm: alarm)
    } else {
      deadlines = Deadlines(turn: core.turn, alarm: try LoopAlarm(loop: loop))
    }
    self.deadlines = deadlines
    pulses = deadlines.slot { core.expirePulses() }
    dnd = deadlines.slot { core.expireDND() }
    repair = deadlines.slot { core.tryRepair() }
    warnings = deadlines.slot { core.flushWarnings() }
    let heap = HeapTrimmer()
    let trim = deadlines.slot { heap.trim() }
    heap.schedule = { [unowned deadlines] in deadlines.set(trim, after: $0) }
    heap.trimmed = { [logger] in logger.debug("Gave the heap's free memory back to the kernel (malloc_trim).") }
    connections = try Connections(loop: loop, core: core, deadlines: deadlines, heap: heap)
    outbox = Outbox(logger: logger, budget: sendBudget)
    acceptor = try Acceptor(
      listener: listener, connections: connections, core: core, deadlines: deadlines, accept: accept)
    postSource = try loop.addPost { [unowned self] in endTurn() }
  }

  var store: Store { core.store }
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
    outbox.budget = .unlimited
    endTurn()
    connections.closeAll()
  }

  /// Once per loop turn, before sleeping (and once more at shutdown): the core commits the
  /// turn's changes, publishes their events and has every reply and event sent; then the core's
  /// deadlines are set and the alarm for the earliest of all, and a log that dropped lines is
  /// watched for room to say so.
  func endTurn() {
    let timed = logger.level >= .debug
    let began = timed ? core.turn.began ?? loop.now : 0
    core.endTurn(outbox)
    setCoreDeadlines()
    deadlines.setAlarm()
    logOutput?.watchForRoom(on: loop)
    connections.turnEnded(watchers: core.watcherCount, outputCarried: core.sendQueue.carriedCount > 0)
    if timed, let turn = turnTimer.ended(began: began) {
      logger.debug("Longest turn so far: \(turn.cpu) µs of CPU time, \(turn.wall) µs from its start to its end.")
    }
  }

  /// Times the loop's turns at the debug level (`TurnTimer`).
  private var turnTimer = TurnTimer()

  /// The core's deadlines as the turn left them; each unchanged one costs a look.
  private func setCoreDeadlines() {
    deadlines.set(pulses, at: store.nextPulseDeadline)
    deadlines.set(dnd, at: store.nextDNDDeadline)
    deadlines.set(repair, at: core.policy.nextRepair)
    // `nextFlush` is a pass over the reasons; with none remembered and no deadline set (nearly
    // every turn) there is nothing to look at.
    if core.warnings.reasonCount > 0 || deadlines.deadline(of: warnings) != nil {
      deadlines.set(warnings, at: core.warnings.nextFlush)
    }
  }
}
