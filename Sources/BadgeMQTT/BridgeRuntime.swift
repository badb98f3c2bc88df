import BadgeClient
import BadgeCore
import BadgeLog
import BadgeMesh
import BadgeMosquitto
import BadgeSystem

/// The bridge's connections around its core: the daemon's (`DaemonClient`, which asks the
/// core's first requests and watch again on every connection) and the MQTT session feed
/// `MeshCore`, and what it asks for is done here, at once (the log lines it decides on are
/// written here too); each connection is kept up with backoff and jitter, one log line per
/// change of its state (`LinkHealth`).
///
/// Everything that comes in (a reply's line, a pushed line, a closed connection, a broker
/// event, a timer) runs through `work`, one piece at a time: a connection that reports its
/// loss from inside a call made by `perform` (a publish, a send) is handed to the core after
/// `perform` returns, never inside it.
final class BridgeRuntime {
  private let loop: EventLoop
  private let core: MeshCore
  private let session: MosquittoSession
  /// Made once `self` is, as its first requests' replies come back to the core through it.
  private var daemon: DaemonClient!
  private let logger: Logger
  private var brokerHealth: LinkHealth
  /// 0.25 s doubling to a minute: a broker that is down is not asked more than once a minute.
  private var brokerBackoff = Backoff(initial: 250_000, maximum: 60_000_000)
  private var random = SystemRandomNumberGenerator()
  private var brokerRetry: TimerSource?
  private var coreTimer: TimerSource?
  private var stopping = false
  private let work = SerialWork()
  /// Gives the heap's free memory back once a burst of requests to the daemon is over (a flood
  /// of other machines' commands: each one a request, its line, its reply handler and the
  /// broker's message, all freed when it is answered), so the bridge does not stay at its peak.
  private let heap = HeapTrimmer()
  private var trimTimer: TimerSource?
  /// The most requests that awaited the daemon's replies since they last all came.
  private var awaitingPeak = 0

  /// What one request to the daemon holds until it is answered, roughly (its line, its reply
  /// handler, the message it came from), as the heap trimmer counts it.
  static let bytesPerRequest = 512

  /// How many of the core's requests may await replies at once: more than the bridge ever has
  /// in flight (a request for each channel and host it hears of), so none is refused.
  static let requestLimit = 1 << 20

  init(loop: EventLoop, config: MeshConfig, session: MosquittoSession, socketPath: String, logger: Logger)
    throws(SystemError)
  {
    self.loop = loop
    self.session = session
    self.logger = logger
    core = MeshCore(config: config)
    brokerHealth = LinkHealth(peer: "the broker \(config.broker)")
    brokerRetry = try loop.addTimer { [unowned session] in session.connect() }
    coreTimer = try loop.addTimer(accuracy: 1000) { [unowned self] in
      work.run { [unowned self] in
        core.tick(at: now)
        perform()
      }
    }
    trimTimer = try loop.addTimer { [unowned self] in heap.trim() }
    heap.schedule = { [unowned self] delay in trimTimer?.schedule(at: loop.now + delay) }
    session.onEvent = { [unowned self] event in work.run { [unowned self] in brokerEvent(event) } }
    // The first requests' replies, and every other request's, come back to the core with the
    // request they answer; a request whose connection ended gets no reply, as the core forgets
    // what it awaited when it hears of the end.
    let first = core.daemonFirstRequests.map { request in
      DaemonClient.Session.FirstRequest(request.request, id: request.id, ticket: replyHandler(request))
    }
    daemon = DaemonClient(
      socket: socketPath, loop: loop, limit: BridgeRuntime.requestLimit, firstRequests: first, upAtFirstOK: false,
      log: { [unowned self] line in logger.log(line.level, line.text) },
      onEvent: { [unowned self] event in work.run { [unowned self] in daemonEvent(event) } })
    if let patterns = core.daemonWatchPatterns { daemon.watch(patterns) }
  }

  private var now: MeshTime {
    MeshTime(monotonic: loop.now, wallMs: Int64(Environment.wallClockMicroseconds / 1000))
  }

  /// Connects to badged and to the broker; fails only when the loop cannot take the daemon
  /// connection's retry timer.
  func start() throws(SystemError) {
    var failure: SystemError?
    work.run { [unowned self] in
      do throws(SystemError) {
        try daemon.start()
        session.connect()
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Leaves the broker with the last will (the others see this machine offline at once) and
  /// closes the daemon's connection.
  func stop() {
    stopping = true
    session.disconnect()
    daemon.stop()
  }

  // MARK: The daemon

  private func daemonEvent(_ event: DaemonClient.Event) {
    switch event {
    case .connected: core.daemonConnected(at: now)
    case .received(let delivery): core.daemonReceived(delivery, at: now)
    case .disconnected: core.daemonClosed(at: now)
    }
    perform()
  }

  /// Where the lines of `request`'s reply go: to the core, one piece of work at a time.
  private func replyHandler(_ request: DaemonRequest) -> DaemonClient.ReplyHandler {
    { [unowned self] reply in
      guard case .line(let line) = reply else { return }
      work.run { [unowned self] in
        core.daemonReplied(request, line, at: now)
        perform()
      }
    }
  }

  // MARK: The broker

  private func brokerEvent(_ event: MosquittoSession.Event) {
    switch event {
    case .connected:
      log(brokerHealth.connected())
      brokerBackoff.succeeded()
      core.brokerConnected(at: now)
    case .message(let message):
      core.brokerMessage(message, at: now)
    case .failed(let failure), .lost(let failure):
      log(brokerHealth.failed(failure))
      core.brokerDown(error: brokerHealth.lastError, at: now)
      if !stopping { brokerRetry?.schedule(at: loop.now + brokerBackoff.failed(using: &random)) }
    }
    perform()
  }

  // MARK: The core's actions

  private func perform() {
    var actions = core.takeActions()
    while !actions.isEmpty {
      for action in actions {
        switch action {
        case .request(let request): send(request)
        case .publish(let message): session.publish(message)
        case .subscribe(let topics, let qos): session.subscribe(topics, qos: qos)
        case .status(let text): ServiceManager.notifyStatus(text)
        case .log(let level, let text, let fields): logger.log(level, text, fields)
        case .closeDaemon(let reason): daemon.drop(.refused(reason))
        }
      }
      actions = core.takeActions()
    }
    // The daemon's connection counts as up once it accepted the bridge and its snapshot is in,
    // not when the socket connects: a daemon that refuses it is a failed attempt.
    if core.isDaemonReady { daemon.linkIsUp() }
    coreTimer?.arm(at: core.nextDeadline)
    noteRequestsAnswered()
  }

  /// Once every request has its reply, what they held is freed: counted for the heap trimmer.
  private func noteRequestsAnswered() {
    let awaiting = daemon.awaitingCount
    awaitingPeak = max(awaitingPeak, awaiting)
    guard awaiting == 0, awaitingPeak > 0 else { return }
    heap.released(awaitingPeak * BridgeRuntime.bytesPerRequest)
    awaitingPeak = 0
  }

  /// Sends one of the core's requests; a `WATCH` of its own (a channel looked up) adds to what
  /// the connection watches. With no connection up it is not sent, and its reply not awaited.
  private func send(_ request: DaemonRequest) {
    if case .watch(let patterns, _) = request.request {
      daemon.watchAlso(patterns, reply: replyHandler(request))
    } else {
      daemon.send(request.request, id: request.id, reply: replyHandler(request))
    }
  }

  private func log(_ line: LinkHealth.Line?) {
    if let line { logger.log(line.level, line.text) }
  }
}
