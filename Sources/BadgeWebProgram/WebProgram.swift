import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeOptions
import BadgePOSIX
import BadgeSystem
import BadgeWeb
import Glibc

/// `badged-web` from start to exit, told in order: read the command line and the `[web]`
/// section (exit 78 with its first fault); bind every listen address (exit 1 when one cannot be
/// bound), connect to badged and serve (`WebRuntime`); SIGTERM and SIGINT end every stream and
/// request and exit 0.
public enum WebProgram {
  public typealias ExitStatus = ProgramExitStatus

  public static func main(_ arguments: [String]) -> CInt {
    Signals.block([SIGTERM, SIGINT, SIGHUP])
    Signals.ignoreBrokenPipe()

    let options: ClientOptions
    switch ProgramOptions.start(
      program: "badged-web", usage: WebOptions.usage, help: WebOptions.help,
      version: BadgedVersion.current, { () throws(ProgramOptions.UsageError) in try ClientOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel, identifier: "badged-web")
    let configFile = options.configFile ?? XDGPaths.defaultConfigFile
    let config: WebConfig
    do throws(ConfigError) {
      config = try loadConfig(path: configFile, mustExist: options.configFile != nil)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }
    let socketPath = options.socketPath ?? XDGPaths.defaultSocket
    // A descriptor per connection, up to max_clients: systemd's soft limit of 1,024 would refuse
    // clients long before it.
    let files = OpenFileLimit.raiseToHard()
    if files < UInt64(config.maxClients) + 64 {
      logger.warning("Only \(files) files may be open (RLIMIT_NOFILE): fewer than max_clients = \(config.maxClients).")
    }
    do {
      let loop = try EventLoop()
      let runtime = try WebRuntime(loop: loop, config: config, socketPath: socketPath, logger: logger)
      let stop = {
        ServiceManager.notifyStopping()
        logger.info("Shutting down (\(runtime.streamCount) streams open).")
        runtime.stop()
        loop.exit(code: ExitStatus.success)
      }
      let signals = [
        try loop.addSignal(SIGTERM, stop),
        try loop.addSignal(SIGINT, stop),
        // The [web] section is read at start only: SIGHUP is taken so it never ends the program.
        try loop.addSignal(SIGHUP) {
          logger.info("The [web] section is read at start; restart badged-web to apply.")
        },
      ]
      try runtime.start()
      let addresses = runtime.addresses.joined(separator: " ")
      logger.info("Serving on \(addresses) for badged at \(socketPath).")
      ServiceManager.notifyReady(status: "Serving on \(addresses)")
      _ = loop.enableWatchdog()
      let status = try loop.run()
      withExtendedLifetime((signals, runtime)) {}
      return status
    } catch {
      logger.error("\(error)")
      return ExitStatus.failure
    }
  }

  /// The `[web]` section of the file at `path`; the defaults when the file is the default one
  /// and does not exist.
  static func loadConfig(path: String, mustExist: Bool) throws(ConfigError) -> WebConfig {
    try WebConfig.parse(IniFile.read(path: path, mustExist: mustExist), file: path)
  }
}
