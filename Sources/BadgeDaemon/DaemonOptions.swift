import BadgeCore
import BadgeLog
import BadgeOptions
import BadgeSystem

/// The command line of `badged`.
public struct DaemonOptions: Equatable {
  public var socketPath: String?
  public var configFile: String?
  public var stateFolder: String?
  public var logLevel: Logger.Level = .info

  /// What the command line asks for.
  public typealias Action = ProgramAction<DaemonOptions>

  /// A command line that cannot be run; exit status 64.
  public typealias UsageError = ProgramOptions.UsageError

  public static let usage =
    "badged [--socket <path>] [--config <file>] [--state-dir <dir>] [--log-level <level>]"

  public static let help = """
    OVERVIEW: Keeps unread counts for named channels and serves them over a Unix socket.

    Any program changes a count with one line (INCR mail); any number of watchers are pushed
    every change. See badged(1), badged.conf(5) and docs/PROTOCOL.md.

    USAGE: \(usage)

    OPTIONS:
      --socket <path>         The socket to serve.
                              (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)
      --config <file>         The config file; it must exist when given.
                              (default: $XDG_CONFIG_HOME/badged/badged.conf, if it exists)
      --state-dir <dir>       Where counts are persisted. (default: $XDG_STATE_HOME/badged)
      --log-level <level>     emerg, alert, crit, err, warning, notice, info or debug.
                              (default: info)
      --foreground            Stay in the foreground; accepted for scripts, as badged never forks.
      --version               Show the version.
      -h, --help              Show help information.

    """

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Action {
    var options = DaemonOptions()
    var action: Action?
    try ProgramOptions.read(
      arguments, valued: ["--socket", "--config", "--state-dir", "--log-level"], flags: ["--foreground"]
    ) { option throws(UsageError) in
      switch option.name {
      case "-h", "--help": action = .help
      case "--version": action = .version
      case "--socket": options.socketPath = option.value
      case "--config": options.configFile = option.value
      case "--state-dir": options.stateFolder = option.value
      case "--log-level": options.logLevel = try ProgramOptions.logLevel(option.value!)
      default: break  // --foreground: badged never forks
      }
    }
    return action ?? .run(options)
  }
}
