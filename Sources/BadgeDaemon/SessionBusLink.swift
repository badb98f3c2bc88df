import BadgeCore
import BadgeLog
import BadgeSystem

/// Keeps one connection to the session bus alive: connects at start, and whenever the bus is
/// missing or goes away, retries with backoff until it is back.
///
/// A daemon without a session bus serves its socket as ever; the link says so in one log line
/// and keeps quiet until the bus returns (retries are debug lines).
final class SessionBusLink {
  /// What the connection is for, in log lines ("the LauncherEntry bridge").
  private let purpose: String
  private let loop: EventLoop
  private let logger: Logger
  private let monitor: Bool
  /// Sets up a new connection (matches, names); a throw drops it and retries later.
  private let connected: (BusConnection) throws(SystemError) -> Void
  /// Called when a connection that `connected` set up is gone, before the retry.
  private let disconnected: () -> Void

  private(set) var connection: BusConnection?
  private var disconnectFilter: BusSlot?
  private var teardown: EventSource?
  private var retryTimer: TimerSource?
  private var retryDelay = SessionBusLink.firstRetry
  /// Whether the missing bus was already logged (one line until it comes back).
  private var reportedAbsence = false

  /// The first retry comes this soon after a failure (µs); each next one waits twice as long,
  /// up to `lastRetry`.
  static let firstRetry: UInt64 = 250_000
  static let lastRetry: UInt64 = 10_000_000

  init(
    purpose: String, loop: EventLoop, logger: Logger, monitor: Bool = false,
    connected: @escaping (BusConnection) throws(SystemError) -> Void, disconnected: @escaping () -> Void
  ) {
    self.purpose = purpose
    self.loop = loop
    self.logger = logger
    self.monitor = monitor
    self.connected = connected
    self.disconnected = disconnected
  }

  /// Connects now, or schedules retries.
  func start() {
    do throws(SystemError) {
      let bus = try BusConnection.session(loop: loop, description: "badged", monitor: monitor)
      disconnectFilter = try bus.addFilter { [unowned self] message in
        if message.isDisconnected { scheduleTeardown() }
        return false
      }
      connection = bus
      try connected(bus)
      retryDelay = SessionBusLink.firstRetry
      reportedAbsence = false
      logger.info("Connected to the session bus for \(purpose).")
    } catch {
      drop(notify: connection != nil)
      if reportedAbsence {
        logger.debug("Still no session bus for \(purpose): \(error).")
      } else {
        reportedAbsence = true
        logger.notice("No session bus for \(purpose) (\(error)); retrying until there is one.")
      }
      retryLater()
    }
  }

  /// Drops the connection for good (shutdown, or the config turned the bridge off).
  func stop() {
    retryTimer?.cancel()
    retryTimer = nil
    teardown?.cancel()
    teardown = nil
    drop(notify: connection != nil)
  }

  /// sd-bus reports the loss from inside its own dispatch: the connection is released on the
  /// next loop turn, not under its feet.
  private func scheduleTeardown() {
    guard teardown == nil else { return }
    teardown = try? loop.addDefer { [unowned self] in
      teardown = nil
      drop(notify: true)
      reportedAbsence = true
      logger.notice("Lost the session bus for \(purpose); reconnecting when it is back.")
      retryDelay = SessionBusLink.firstRetry
      retryLater()
    }
  }

  private func drop(notify: Bool) {
    disconnectFilter = nil
    if notify { disconnected() }
    connection = nil
  }

  private func retryLater() {
    let deadline = loop.now + retryDelay
    retryDelay = min(retryDelay * 2, SessionBusLink.lastRetry)
    if let retryTimer {
      retryTimer.schedule(at: deadline)
    } else {
      retryTimer = try? loop.addTimer(at: deadline, accuracy: 50_000) { [unowned self] in start() }
    }
  }
}
