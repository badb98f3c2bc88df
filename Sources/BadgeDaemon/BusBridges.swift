import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// The daemon's links to the session bus, started and stopped as the config asks: the
/// LauncherEntry bridge (`[bridge] enabled`, on by default) and the notification monitor
/// (`[notifications] count`, off by default), each on a connection of its own.
final class BusBridges {
  private let loop: EventLoop
  private let logger: Logger
  private let launcherEntry: LauncherEntryBridge
  private var launcherLink: SessionBusLink?
  private let notifications: NotificationMonitor
  private var notificationLink: SessionBusLink?

  init(core: DaemonCore, loop: EventLoop, logger: Logger) {
    self.loop = loop
    self.logger = logger
    launcherEntry = LauncherEntryBridge(core: core, logger: logger)
    notifications = NotificationMonitor(core: core, logger: logger)
    core.observer = launcherEntry
  }

  /// Starts or stops each link to match `config` (at start and after every reload).
  func apply(_ config: DaemonConfig) {
    let bridge = launcherEntry
    let monitor = notifications
    let bridgeWasOn = launcherLink != nil
    update(
      &launcherLink, wanted: config.bridge.enabled, purpose: "the LauncherEntry bridge", monitor: false,
      off: "The LauncherEntry bridge is off ([bridge] enabled = no).",
      connected: { (bus: BusConnection) throws(SystemError) in try bridge.connected(bus) },
      disconnected: { bridge.disconnected() })
    if bridgeWasOn { launcherEntry.announceAll() }  // the exports a reload added
    update(
      &notificationLink, wanted: config.notifications.count, purpose: "counting notifications", monitor: true,
      off: "Stopped counting notifications ([notifications] count = no).",
      connected: { (bus: BusConnection) throws(SystemError) in try monitor.connected(bus) },
      disconnected: { monitor.disconnected() })
  }

  /// Drops every connection (shutdown).
  func stop() {
    for link in [launcherLink, notificationLink] { link?.stop() }
    launcherLink = nil
    notificationLink = nil
  }

  private func update(
    _ link: inout SessionBusLink?, wanted: Bool, purpose: String, monitor: Bool, off: String,
    connected: @escaping (BusConnection) throws(SystemError) -> Void, disconnected: @escaping () -> Void
  ) {
    if wanted, link == nil {
      let started = SessionBusLink(
        purpose: purpose, loop: loop, logger: logger, monitor: monitor, connected: connected,
        disconnected: disconnected)
      link = started
      started.start()
    } else if !wanted, let running = link {
      running.stop()
      link = nil
      logger.info(off)
    }
  }
}
