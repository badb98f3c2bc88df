import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeOptions
import BadgeSources
import BadgeSystem
import Glibc

/// `badged-sources` from start to exit: read the command line and the `[source.NAME]`
/// sections. Until the runtime that runs the sources is wired to their core, it stops once the
/// config is read: exit 0 with the sources it would run logged, 78 with the config's first
/// fault.
public enum SourcesProgram {
  /// Exit statuses, as badged's and badged-mqtt's.
  public typealias ExitStatus = ProgramExitStatus

  public static func main(_ arguments: [String]) -> CInt {
    let options: ClientOptions
    switch ProgramOptions.start(
      program: "badged-sources", usage: SourcesOptions.usage, help: SourcesOptions.help,
      version: BadgedVersion.current, { () throws(ProgramOptions.UsageError) in try ClientOptions.parse(arguments) })
    {
    case .exit(let status): return status
    case .run(let parsed): options = parsed
    }

    let logger = Logger(level: options.logLevel, identifier: "badged-sources")
    let config: SourcesConfig
    do throws(ConfigError) {
      config = try loadConfig(path: options.configFile ?? XDGPaths.defaultConfigFile)
    } catch {
      logger.error("Failed to load configuration: \(error)")
      return ExitStatus.config
    }
    for source in config.sources {
      logger.info("Source '\(source.name)': \(source.kind.rawValue) (\(config.file):\(source.line)).")
    }
    logger.notice("Read \(config.sources.count) sources from \(config.file); running them is not built yet.")
    return ExitStatus.success
  }

  /// The `[source.NAME]` sections of the file at `path`, which must exist.
  public static func loadConfig(path: String) throws(ConfigError) -> SourcesConfig {
    try SourcesConfig.parse(IniFile.read(path: path), file: path)
  }
}
