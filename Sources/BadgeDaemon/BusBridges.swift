import BadgeCore
import BadgeSystem

/// The daemon's links to the session bus, started and stopped as the config asks: the
/// LauncherEntry bridge (`[bridge] enabled`, on by default).
final class BusBridges {
  private let server: Server
  private let loop: EventLoop
  private let logger: Logger
  private let launcherEntry: LauncherEntryBridge
  private var launcherLink: SessionBusLink?

  init(server: Server, loop: EventLoop, logger: Logger) {
    self.server = server
    self.loop = loop
    self.logger = logger
    launcherEntry = LauncherEntryBridge(server: server, logger: logger)
    server.observer = { [unowned launcherEntry] in launcherEntry.channelPushed($0) }
  }

  /// Starts or stops each link to match `config` (at start and after every reload).
  func apply(_ config: DaemonConfig) {
    if config.bridge.enabled, launcherLink == nil {
      let link = SessionBusLink(
        purpose: "the LauncherEntry bridge", loop: loop, logger: logger,
        connected: { [unowned launcherEntry] (bus: BusConnection) throws(SystemError) in try launcherEntry.connected(bus) },
        disconnected: { [unowned launcherEntry] in launcherEntry.disconnected() })
      launcherLink = link
      link.start()
    } else if !config.bridge.enabled, let link = launcherLink {
      link.stop()
      launcherLink = nil
      logger.info("The LauncherEntry bridge is off ([bridge] enabled = no).")
    } else {
      launcherEntry.announceAll()  // exports the reload added
    }
  }

  /// Drops every connection (shutdown).
  func stop() {
    launcherLink?.stop()
    launcherLink = nil
  }
}
