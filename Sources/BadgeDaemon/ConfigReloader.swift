import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem

/// Re-reads the config file and puts it in force: the one reload behind SIGHUP and `RELOAD`.
///
/// A valid file applies to every channel, and watchers get an event for each channel whose
/// label or style changed. A broken one is refused with `file:line: reason`, and the old config
/// stays. Either way the service manager hears `RELOADING=1`, then `READY=1`.
final class ConfigReloader: ConfigReloading {
  private let path: String
  /// Whether the file was named with `--config` (then it must exist).
  private let required: Bool
  private unowned let core: DaemonCore
  private let notifier: ServiceNotifier
  private let logger: Logger
  /// Called with each config put in force, for what follows the config besides the store.
  var didApply: ((DaemonConfig) -> Void)?

  init(path: String, required: Bool, core: DaemonCore, notifier: ServiceNotifier, logger: Logger) {
    self.path = path
    self.required = required
    self.core = core
    self.notifier = notifier
    self.logger = logger
  }

  /// Reloads the config.
  ///
  /// - Throws: `ConfigError` (`file:line: reason`) when the file is refused; nothing changed.
  func reload() throws(ConfigError) {
    notifier.reloading()
    defer { notifier.ready() }
    let config: DaemonConfig
    do throws(ConfigError) {
      config = try Daemon.loadConfig(path: path, required: required)
    } catch {
      logger.error("Failed to reload configuration, keeping the old one: \(error)")
      throw error
    }
    core.reconfigure(config)
    didApply?(config)
    logger.info("Reloaded configuration from \(path).")
  }
}
