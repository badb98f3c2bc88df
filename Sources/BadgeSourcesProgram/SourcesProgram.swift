import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeOptions
import BadgeSources
import BadgeSystem
import Glibc

/// `badged-sources` from start to exit, told in order: read the command line and the
/// `[source.NAME]` sections (exit 78 with the config's first fault); run every source and keep
/// the connection to badged up (`SourcesRuntime`); SIGHUP reloads the sections, SIGCONT
/// recounts (the program may have missed changes while stopped), SIGTERM and SIGINT end every
/// command's process group and exit 0.
public enum SourcesProgram {
  /// Exit statuses, as badged's and badged-mqtt's.
  public typealias ExitStatus = ProgramExitStatus

  public static func main(_ arguments: [String]) -> CInt {
    // SIGCHLD too: commands are reaped through the loop's child sources, as the daemon's hooks.
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGCONT, SIGCHLD])
    Signals.ignoreBrokenPipe()

    let options: ClientOptions
    switch ProgramOptions.start(
      program: "badged-sources", usage: SourcesOptions.usage, help: SourcesOptions.help,
      version: BadgedVersion.current, { () throws(ProgramOptions.UsageError) in try ClientOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel, identifier: "badged-sources")
    let configFile = options.configFile ?? XDGPaths.defaultConfigFile
    let config: SourcesConfig
    do throws(ConfigError) {
      config = try loadConfig(path: configFile)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }
    let socketPath = options.socketPath ?? XDGPaths.defaultSocket
    do {
      let loop = try EventLoop()
      let runtime = try SourcesRuntime(
        loop: loop, config: config, socketPath: socketPath, logger: logger,
        readConfig: { () -> Result<SourcesConfig, ConfigError> in
          Result { () throws(ConfigError) in try loadConfig(path: configFile) }
        })
      let stop = {
        ServiceManager.notifyStopping()
        logger.info("Shutting down.")
        runtime.stop()
        loop.exit(code: ExitStatus.success)
      }
      let signals = [
        try loop.addSignal(SIGTERM, stop),
        try loop.addSignal(SIGINT, stop),
        try loop.addSignal(SIGHUP) {
          logger.info("Reloading \(configFile).")
          runtime.reload()
        },
        try loop.addSignal(SIGCONT) { runtime.continued() },
      ]
      for source in config.sources {
        logger.info("Source '\(source.name)': \(source.kind.rawValue) (\(config.file):\(source.line)).")
      }
      logger.info("Running \(config.sources.count) sources from \(config.file) for badged at \(socketPath).")
      try runtime.start()
      ServiceManager.notifyReady(status: runtime.core.serviceStatus ?? "Running \(config.sources.count) sources")
      _ = loop.enableWatchdog()
      let status = try loop.run()
      withExtendedLifetime((signals, runtime)) {}
      return status
    } catch {
      logger.error("\(error)")
      return ExitStatus.failure
    }
  }

  /// The `[source.NAME]` sections of the file at `path`, which must exist.
  public static func loadConfig(path: String) throws(ConfigError) -> SourcesConfig {
    try SourcesConfig.parse(IniFile.read(path: path), file: path)
  }
}
