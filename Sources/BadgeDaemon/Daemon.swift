import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeOptions
import BadgeServer
import BadgeSystem
import Glibc

/// The daemon's life from start to exit, told in order: read the command line and config, take
/// the socket, serve until a signal, shut down cleanly.
public enum Daemon {
  /// Exit statuses (sysexits.h where one fits).
  public enum ExitStatus {
    public static let success: CInt = 0
    /// Could not start: socket taken or unusable, state folder unusable.
    public static let failure: CInt = 1
    public static let usage: CInt = 64
    /// The config file is missing (when named) or invalid: `EX_CONFIG`.
    public static let config: CInt = 78
  }

  /// Runs the daemon with the process's arguments and returns its exit status.
  public static func main(_ arguments: [String]) -> CInt {
    // Before anything can start a thread: signals arrive through the event loop.
    // SIGCHLD too: hooks' children are reaped through the loop's child sources.
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGCHLD])
    Signals.ignoreBrokenPipe()
    // Past a file size limit, a write fails with EFBIG and is handled, instead of killing us.
    Signals.ignore(SIGXFSZ)

    let options: DaemonOptions
    switch ProgramOptions.start(
      program: "badged", usage: DaemonOptions.usage, help: DaemonOptions.help, version: BadgedVersion.current,
      { () throws(ProgramOptions.UsageError) in try DaemonOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel)
    let configPath = options.configFile ?? XDGPaths.defaultConfigFile
    let config: DaemonConfig
    do throws(ConfigError) {
      config = try loadConfig(path: configPath, required: options.configFile != nil)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }

    let socketPath = options.socketPath ?? XDGPaths.defaultSocket
    let stateFolder = options.stateFolder ?? XDGPaths.defaultStateFolder

    // The socket the service manager passed (socket activation), else our own at socketPath.
    let listener: ListeningSocket
    do throws(ListeningSocket.Error) {
      listener = try ListeningSocket.open(path: socketPath)
    } catch {
      logger.error("\(error)")
      return ExitStatus.failure
    }

    do throws(SystemError) {
      let loop = try EventLoop()
      let server = try Server(loop: loop, config: config, listener: listener.fd, logger: logger)
      let store = server.store
      // The start is the daemon's first turn: loading the state folder compacts it, pruning
      // history by that turn's day, and the bus bridges announce at its instant. It ends
      // before the loop runs, so the loop's first turn reads the clock afresh.
      server.core.turn.begin()
      let persistence: Persistence
      do {
        persistence = try Persistence(folder: stateFolder, store: store, sync: config.sync, loop: loop, logger: logger)
      } catch {
        throw SystemError("use the state folder '\(stateFolder)' (\(error.operation))", error.errno)
      }
      server.core.changeLog = persistence
      let hooks = try HookRunner(loop: loop, config: config, logger: logger, warnings: server.core.warnings)
      server.core.hooks = hooks
      // The service manager's view: READY/RELOADING/STOPPING, STATUS= and the watchdog.
      let notifier = try ServiceNotifier(loop: loop, server: server)
      notifier.storageNote = { persistence.compactionOwed }
      let reloader = ConfigReloader(
        path: configPath, required: options.configFile != nil, core: server.core, notifier: notifier,
        logger: logger)
      let bridges = BusBridges(core: server.core, loop: loop, logger: logger)
      reloader.didApply = {
        persistence.sync = $0.sync
        bridges.apply($0)
        hooks.reconfigure($0)
      }
      server.core.reloader = reloader
      let stop = { [unowned server] in
        notifier.stopping()
        logger.info("Shutting down.")
        server.stopAccepting()
        loop.exit(code: 0)
      }
      let signals = [
        try loop.addSignal(SIGTERM, stop),
        try loop.addSignal(SIGINT, stop),
        try loop.addSignal(SIGHUP) { try? reloader.reload() },
      ]
      logger.info("Listening on \(listener.path)\(listener.isInherited ? " (passed by the service manager)" : "").")
      for warning in listener.accessWarnings() { logger.warning(warning) }
      bridges.apply(config)
      server.endTurn()
      notifier.ready()
      var status = try loop.run()
      bridges.stop()
      server.closeAll()
      do {
        try persistence.close()
      } catch {
        logger.error("Failed to save the state at shutdown: \(error)")
        status = ExitStatus.failure
      }
      withExtendedLifetime(signals) {}
      listener.close()
      return status
    } catch {
      logger.error("\(error)")
      listener.close()
      return ExitStatus.failure
    }
  }

  /// The config at `path`; defaults when the file is absent and was not named explicitly.
  public static func loadConfig(path: String, required: Bool) throws(ConfigError) -> DaemonConfig {
    if !required && !FileSystem.exists(path) { return DaemonConfig() }
    return try DaemonConfig.parse(IniFile.read(path: path), file: path)
  }
}
