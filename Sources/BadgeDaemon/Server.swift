import BadgeCore
import BadgeProtocol
import BadgeSystem

/// The daemon's socket server: accepts connections and ties the parts of a loop turn together.
///
/// A turn: the requests of every ready connection are read and carried out (`CommandExecutor`)
/// by the reader's one poll-set callback, within each connection's allowance; then the post
/// source ends the turn: `GroupCommit` saves the turn's changes
/// and publishes their events (`Subscriptions`), the `Outbox` sends every reply and event,
/// and the `PulseTimer` is re-armed. Nothing is sent before the commit, and nothing is read
/// from inside the post source.
final class Server {
  let loop: EventLoop
  let store: Store
  let subscriptions: Subscriptions
  let commit: GroupCommit
  let executor: CommandExecutor
  var logger: Logger
  /// The change log (persistence); `nil` keeps changes in memory only.
  var changeLog: ChangeLog? {
    get { commit.changeLog }
    set {
      commit.changeLog = newValue
      newValue?.failed = { [unowned self] error in
        commit.policy.failed(error, "changes already acknowledged are kept in memory.")
      }
      commit.policy.repair = { [unowned self] () throws(SystemError) in try changeLog?.repair() }
    }
  }
  /// Runs the feedback hooks of changes.
  var hooks: HookRunner? {
    get { commit.hooks }
    set { commit.hooks = newValue }
  }
  /// Carries out `RELOAD` (the daemon's one reload, shared with SIGHUP).
  var reloadConfig: (() throws(ConfigError) -> Void)? {
    get { executor.reloadConfig }
    set { executor.reloadConfig = newValue }
  }

  private let listener: FileDescriptor
  private var acceptor: Acceptor?
  private let timeouts: ConnectionTimeouts
  private var postSource: EventSource?
  private var repairTimer: TimerSource?
  private let outbox: Outbox
  private var pulseTimer: PulseTimer!
  private var dndTimer: DNDTimer!
  private let reader: ConnectionReader

  private var connections: [Int: Connection] = [:]
  private var nextConnectionID = 1

  init(loop: EventLoop, store: Store, listener: FileDescriptor, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.store = store
    self.listener = listener
    self.logger = logger
    let outbox = try Outbox(loop: loop, logger: logger)
    self.outbox = outbox
    subscriptions = Subscriptions { outbox.queue(unsafeDowncast($0, to: Connection.self)) }
    commit = GroupCommit(store: store, subscriptions: subscriptions, policy: StorageFailurePolicy(logger: logger))
    executor = CommandExecutor(store: store, subscriptions: subscriptions, commit: commit, logger: logger)
    reader = try ConnectionReader(loop: loop, executor: executor, outbox: outbox, logger: logger)
    pulseTimer = try PulseTimer(loop: loop, store: store, commit: commit)
    dndTimer = try DNDTimer(loop: loop, store: store, commit: commit, logger: logger)
    let timeouts = try ConnectionTimeouts(loop: loop) { [store] in store.config.limits }
    self.timeouts = timeouts
    reader.close = { [unowned self] in close($0) }
    reader.timeouts = timeouts
    outbox.sent = { timeouts.sent($0, progressed: $1) }
    timeouts.lineTimedOut = { [unowned self] in lineTimedOut($0) }
    timeouts.sendTimedOut = { [unowned self] in sendTimedOut($0) }
    acceptor = try Acceptor(loop: loop, listener: listener, logger: logger)
    acceptor?.clientCount = { [unowned self] in connections.count }
    acceptor?.maxClients = { [store] in store.config.limits.maxClients }
    acceptor?.admit = { [unowned self] (fd, peer) throws(SystemError) in try admit(fd, peer) }
    postSource = try loop.addPost { [unowned self] in endOfTurn() }
    repairTimer = try loop.addTimer(accuracy: 100_000) { [unowned self] in commit.policy.tryRepair() }
    commit.policy.scheduleRepair = { [unowned self] in repairTimer?.schedule(at: loop.now + 1_000_000) }
  }

  /// The number of connected clients and of watchers, for status lines.
  var clientCount: Int { connections.count }
  var watcherCount: Int { subscriptions.count }

  /// Stops accepting new clients (shutdown).
  func stopAccepting() {
    acceptor?.stop()
    acceptor = nil
  }

  /// Ends the turn, sends what can be sent and closes every connection (shutdown).
  func closeAll() {
    endOfTurn()
    for connection in Array(connections.values) { close(connection) }
  }

  /// Stages an event that is not a change (a reload changed the channel's settings).
  func push(_ channel: Channel) {
    commit.stage(channel)
  }

  /// Takes a connection the acceptor admitted.
  private func admit(_ fd: FileDescriptor, _ peer: UnixSocket.PeerCredentials) throws(SystemError) {
    let connection = Connection(id: nextConnectionID, fd: fd, pid: peer.pid)
    nextConnectionID += 1
    try reader.watch(connection)
    connections[connection.id] = connection
    logger.debug("Client \(connection.id) connected (pid \(peer.pid)).", [.clientPID(peer.pid)])
    reader.readAccepted(connection)
  }

  /// Once per loop turn, before sleeping: commit the turn's changes (publishing their events),
  /// then send every reply and event, then re-arm the pulse and do-not-disturb timers.
  private func endOfTurn() {
    let now = loop.now
    commit.commit(now: now) { close(unsafeDowncast($0, to: Connection.self)) }
    outbox.sendAll(
      appendMerged: { subscriptions.appendMergedEvents(to: $0, from: store, now: now) },
      drained: { [unowned self] in drained($0) },
      close: { [unowned self] in close($0) })
    pulseTimer.arm()
    dndTimer.arm()
    reader.turnEnded(watchers: subscriptions.count)
  }

  /// All of `connection`'s output is sent: close it if it asked to, else let it read again.
  private func drained(_ connection: Connection) {
    if connection.closeAfterFlush {
      close(connection)
    } else if connection.readPaused {
      reader.resume(connection)
    }
  }

  /// `[limits] line_timeout_ms` passed inside a line: `ERR timeout`, then the connection goes
  /// once that is sent. Nothing more of it is read.
  private func lineTimedOut(_ connection: Connection) {
    let limit = store.config.limits.lineTimeoutMs
    logger.debug("Client \(connection.id): no end of line within \(limit) ms, closing.")
    ReplyEncoder.appendError(
      ProtocolError(.timeout, "A line was begun and not finished within \(limit) ms ([limits] line_timeout_ms); closing the connection"),
      to: &connection.output)
    connection.closeAfterFlush = true
    connection.readPaused = true
    outbox.queue(connection)
    connection.armEvents()
  }

  /// `[limits] send_timeout_ms` passed with output waiting and none of it read: the peer is
  /// stuck (or gone without saying), and holds memory; it is disconnected, saying why.
  private func sendTimedOut(_ connection: Connection) {
    let pid = connection.pid.map { " (pid \($0))" } ?? ""
    logger.warning(
      "Client \(connection.id)\(pid) has read none of its \(connection.pendingOutput) bytes of pending output for \(store.config.limits.sendTimeoutMs) ms ([limits] send_timeout_ms); disconnecting it.",
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
    subscriptions.stop(connection)
    outbox.closed(connection)
    logger.debug("Client \(connection.id) disconnected.")
  }
}
