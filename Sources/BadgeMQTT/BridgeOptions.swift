import BadgeCore
import BadgeLog
import BadgeOptions
import BadgeSystem

/// The command line of `badged-mqtt`.
public struct BridgeOptions: Equatable {
  public var socketPath: String?
  public var configFile: String?
  public var logLevel: Logger.Level = .info

  /// What the command line asks for.
  public enum Action: Equatable {
    case run(BridgeOptions)
    case help
    case version
  }

  /// A command line that cannot be run; exit status 64.
  public typealias UsageError = ProgramOptions.UsageError

  public static let usage = "badged-mqtt [--socket <path>] [--config <file>] [--log-level <level>]"

  public static let help = """
    OVERVIEW: Shares badged's channels with other machines through an MQTT 5 broker.

    Owns the channels [mqtt] share names (publishes their counts, carries out the writes other
    machines send them), shows the channels other machines share, and delivers the writes made
    here to their owners. See badged-mqtt(1), badged.conf(5) and docs/MQTT.md.

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket of badged to talk to.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file whose [mqtt] section to read; it must exist.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --version               Show the version.
      -h, --help              Show help information.

    """

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Action {
    var options = BridgeOptions()
    var action: Action?
    try ProgramOptions.read(arguments, valued: ["--socket", "--config", "--log-level"]) { option throws(UsageError) in
      switch option.name {
      case "-h", "--help": action = .help
      case "--version": action = .version
      case "--socket": options.socketPath = option.value
      case "--config": options.configFile = option.value
      default: options.logLevel = try ProgramOptions.logLevel(option.value!)
      }
    }
    return action ?? .run(options)
  }
}
