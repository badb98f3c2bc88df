import BadgeCore
import BadgeMesh
import BadgeMosquitto
import BadgeSystem

/// The bridge's connections around its core: the daemon's socket and the MQTT session feed
/// `MeshCore`, and what it asks for is done here, at once (the log lines it decides on are
/// written here too); each connection is kept up with
/// backoff and jitter, one log line per change of its state (`LinkHealth`).
///
/// Everything that comes in (a line, a closed connection, a broker event, a timer) runs through
/// `work`, one piece at a time: a connection that reports its loss from inside a call made by
/// `perform` (a publish, a send) is handed to the core after `perform` returns, never inside it.
final class BridgeRuntime {
  private let loop: EventLoop
  private let core: MeshCore
  private let session: MosquittoSession
  private let daemon: DaemonSocket
  private let logger: Logger
  private var brokerHealth: LinkHealth
  private var daemonHealth: LinkHealth
  /// 0.25 s doubling to a minute: a broker that is down is not asked more than once a minute.
  private var brokerBackoff = Backoff(initial: 250_000, maximum: 60_000_000)
  /// 0.1 s doubling to 5 s, as `badgectl watch` retries the daemon.
  private var daemonBackoff = Backoff(initial: 100_000, maximum: 5_000_000)
  private var random = SystemRandomNumberGenerator()
  private var brokerRetry: TimerSource?
  private var daemonRetry: TimerSource?
  private var coreTimer: TimerSource?
  private var stopping = false
  private var daemonAccepted = false
  private let work = SerialWork()

  init(loop: EventLoop, config: MeshConfig, session: MosquittoSession, socketPath: String, logger: Logger)
    throws(SystemError)
  {
    self.loop = loop
    self.session = session
    self.logger = logger
    core = MeshCore(config: config)
    daemon = DaemonSocket(loop: loop, path: socketPath)
    brokerHealth = LinkHealth(peer: "the broker \(config.broker)")
    daemonHealth = LinkHealth(peer: "badged at \(socketPath)")
    brokerRetry = try loop.addTimer { [unowned session] in session.connect() }
    daemonRetry = try loop.addTimer { [unowned self] in work.run { [unowned self] in connectDaemon() } }
    coreTimer = try loop.addTimer(accuracy: 1000) { [unowned self] in
      work.run { [unowned self] in
        core.tick(at: now)
        perform()
      }
    }
    session.onEvent = { [unowned self] event in work.run { [unowned self] in brokerEvent(event) } }
    daemon.onLine = { [unowned self] line in
      work.run { [unowned self] in
        core.daemonLine(line, at: now)
        perform()
      }
    }
    daemon.onClosed = { [unowned self] failure in work.run { [unowned self] in daemonClosed(failure) } }
  }

  private var now: MeshTime {
    MeshTime(monotonic: loop.now, wallMs: Int64(Environment.wallClockMicroseconds / 1000))
  }

  func start() {
    work.run { [unowned self] in
      connectDaemon()
      session.connect()
    }
  }

  /// Leaves the broker with the last will (the others see this machine offline at once) and
  /// closes the daemon's connection.
  func stop() {
    stopping = true
    session.disconnect()
    daemon.close()
  }

  // MARK: The daemon

  private func connectDaemon() {
    do throws(SystemError) {
      try daemon.connect()
    } catch {
      daemonFailed(.unreachable(error.errno.description))
      return
    }
    core.daemonConnected(at: now)
    perform()
  }

  private func daemonClosed(_ failure: LinkFailure) {
    core.daemonClosed(at: now)
    perform()
    daemonFailed(failure)
  }

  private func daemonFailed(_ failure: LinkFailure) {
    guard !stopping else { return }
    log(daemonHealth.failed(failure))
    daemonRetry?.schedule(at: loop.now + daemonBackoff.failed(using: &random))
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
        case .send(let line): daemon.send(line)
        case .publish(let message): session.publish(message)
        case .subscribe(let topics, let qos): session.subscribe(topics, qos: qos)
        case .status(let text): ServiceManager.notifyStatus(text)
        case .log(let level, let text, let fields): logger.log(level, text, fields)
        case .closeDaemon(let reason):
          daemon.close()
          core.daemonClosed(at: now)
          daemonFailed(.refused(reason))
        }
      }
      actions = core.takeActions()
    }
    // The daemon's connection counts as up once it accepted the bridge, not when the socket
    // connects: a daemon that refuses it is a failed attempt, retried with backoff.
    if !daemonAccepted && core.isDaemonReady {
      log(daemonHealth.connected())
      daemonBackoff.succeeded()
    }
    daemonAccepted = core.isDaemonReady
    coreTimer?.arm(at: core.nextDeadline)
  }

  private func log(_ line: LinkHealth.Line?) {
    if let line { logger.log(line.level, line.text) }
  }
}
