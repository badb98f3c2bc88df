import BadgeCore
import BadgeSystem

/// Keeps the service manager informed (sd_notify): readiness, reloads, shutdown, a live status
/// line, and the watchdog.
///
/// Does nothing, and arms no timer, when no service manager listens (`NOTIFY_SOCKET` unset).
final class ServiceNotifier {
  /// The status line is sent at most this often (microseconds).
  static let statusInterval: UInt64 = 1_000_000

  private let loop: EventLoop
  private unowned let server: Server
  private let active: Bool
  private var post: EventSource?
  private var timer: TimerSource?
  private var timerArmed = false
  private var timerJustFired = false
  private var lastStatus = ""
  private var lastStatusAt: UInt64 = 0

  init(loop: EventLoop, server: Server) throws(SystemError) {
    self.loop = loop
    self.server = server
    active = ServiceManager.isListening
    guard active else { return }
    // WATCHDOG=1 at half of WATCHDOG_USEC, from inside the loop: a hung loop stops the pings.
    loop.enableWatchdog()
    timer = try loop.addTimer(accuracy: 50_000) { [unowned self] in statusTimerFired() }
    post = try loop.addPost { [unowned self] in somethingHappened() }
  }

  /// What is wrong with the state folder, while something is (`Persistence.compactionOwed`):
  /// shown after the counts.
  var storageNote: () -> String? = { nil }

  /// `3 channels, 2 clients, 1 watcher`: what `systemctl status` shows, then what is wrong
  /// with the state folder, if anything (`; not compacted: …`).
  var summary: String {
    let channels = server.store.channels.reduce(0) { $0 + ($1.isListed ? 1 : 0) }
    let counts =
      "\(counted(channels, "channel")), \(counted(server.clientCount, "client")), "
      + counted(server.watcherCount, "watcher")
    return storageNote().map { counts + "; " + $0 } ?? counts
  }

  /// `READY=1` with the current status: the state is loaded and the socket is served (or, after
  /// a reload, the new config is in force).
  func ready() {
    guard active else { return }
    lastStatus = summary
    lastStatusAt = loop.now
    ServiceManager.notifyReady(status: lastStatus)
  }

  /// `RELOADING=1`; follow it with `ready()`.
  func reloading() {
    guard active else { return }
    ServiceManager.notifyReloading()
  }

  /// `STOPPING=1`, before clients are closed.
  func stopping() {
    guard active else { return }
    timer?.cancel()
    post?.cancel()
    ServiceManager.notifyStopping()
  }

  // MARK: - The status line

  /// After every loop turn that did something (a post handler): make sure the status is looked
  /// at again within `statusInterval`. The timer's own turn does not count, or it would wake
  /// the daemon every second for ever.
  private func somethingHappened() {
    if timerJustFired {
      timerJustFired = false
      return
    }
    guard !timerArmed else { return }
    timerArmed = true
    timer?.schedule(at: max(loop.now, lastStatusAt + ServiceNotifier.statusInterval))
  }

  private func statusTimerFired() {
    timerArmed = false
    timerJustFired = true
    let status = summary
    guard status != lastStatus else { return }
    lastStatus = status
    lastStatusAt = loop.now
    ServiceManager.notifyStatus(status)
  }

  private func counted(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }
}
