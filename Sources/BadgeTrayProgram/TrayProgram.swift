import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeOptions
import BadgePOSIX
import BadgeSystem
import BadgeTray
import Glibc

/// `badged-tray` from start to exit, told in order: read the command line and the `[tray]`
/// section (exit 78 with its first fault); connect to the session bus and to badged, and keep
/// one StatusNotifierItem per group (`TrayRuntime`); SIGTERM and SIGINT take the items off the
/// bus and exit 0; the session bus going away exits 1 (the unit restarts it with the session).
public enum TrayProgram {
  /// Exit statuses, as the other programs'.
  public typealias ExitStatus = ProgramExitStatus

  public static func main(_ arguments: [String]) -> CInt {
    Signals.block([SIGTERM, SIGINT, SIGHUP])
    Signals.ignoreBrokenPipe()
    // `badgectl open` is started for the menu's and the icon's clicks and never waited for.
    ChildProcess.reapAutomatically()

    let options: ClientOptions
    switch ProgramOptions.start(
      program: "badged-tray", usage: TrayOptions.usage, help: TrayOptions.help,
      version: BadgedVersion.current, { () throws(ProgramOptions.UsageError) in try ClientOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel, identifier: "badged-tray")
    let configFile = options.configFile ?? XDGPaths.defaultConfigFile
    let config: TrayConfig
    do throws(ConfigError) {
      config = try loadConfig(path: configFile, mustExist: options.configFile != nil)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }
    let socketPath = options.socketPath ?? XDGPaths.defaultSocket
    do {
      let loop = try EventLoop()
      let runtime = try TrayRuntime(loop: loop, config: config, socketPath: socketPath, logger: logger)
      let stop = {
        ServiceManager.notifyStopping()
        logger.info("Shutting down.")
        runtime.stop()
        loop.exit(code: ExitStatus.success)
      }
      let signals = [
        try loop.addSignal(SIGTERM, stop),
        try loop.addSignal(SIGINT, stop),
        // The [tray] section is read at start only: SIGHUP is taken so it never ends the program.
        try loop.addSignal(SIGHUP) {
          logger.info("The [tray] section is read at start; restart badged-tray to apply.")
        },
      ]
      try runtime.start()
      let names = config.items.map(\.description).joined(separator: " ")
      logger.info("Showing \(config.items.count) tray items (\(names)) for badged at \(socketPath).")
      ServiceManager.notifyReady(status: "Showing \(config.items.count) tray items")
      _ = loop.enableWatchdog()
      let status = try loop.run()
      withExtendedLifetime((signals, runtime)) {}
      return status
    } catch {
      logger.error("\(error)")
      return ExitStatus.failure
    }
  }

  /// The `[tray]` section of the file at `path`; the defaults when the file is the default one
  /// and does not exist (one item for every channel needs no config).
  public static func loadConfig(path: String, mustExist: Bool) throws(ConfigError) -> TrayConfig {
    try TrayConfig.parse(IniFile.read(path: path, mustExist: mustExist), file: path)
  }
}
