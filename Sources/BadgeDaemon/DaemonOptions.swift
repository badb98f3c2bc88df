import BadgeCore
import BadgeSystem

/// The command line of `badged`.
public struct DaemonOptions: Equatable {
  public var socketPath: String?
  public var configFile: String?
  public var stateFolder: String?
  public var logLevel: Logger.Level = .info

  /// What the command line asks for.
  public enum Action: Equatable {
    case run(DaemonOptions)
    case help
    case version
  }

  /// A command line that cannot be run; exit status 64.
  public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }

  public static let help = """
    OVERVIEW: Keeps unread counts for named channels and serves them over a Unix socket.

    Any program changes a count with one line (INCR mail); any number of watchers are pushed
    every change. See badged(1), badged.conf(5) and docs/PROTOCOL.md.

    USAGE: badged [--socket <path>] [--config <file>] [--state-dir <dir>] [--log-level <level>]

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
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
        name = String(argument[..<eq])
        inlineValue = String(argument[argument.index(after: eq)...])
      }
      func value() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = rest.popFirst(), !next.hasPrefix("--") else {
          throw UsageError(message: "Missing value for '\(name)'")
        }
        return next
      }
      switch name {
      case "-h", "--help": return .help
      case "--version": return .version
      case "--foreground": continue
      case "--socket": options.socketPath = try nonEmpty(value(), name)
      case "--config": options.configFile = try nonEmpty(value(), name)
      case "--state-dir": options.stateFolder = try nonEmpty(value(), name)
      case "--log-level":
        let text = try value()
        guard let level = Logger.Level(name: text) else {
          throw UsageError(
            message:
              "Invalid log level '\(text)'; expected one of \(Logger.Level.allCases.map(\.name).joined(separator: ", "))"
          )
        }
        options.logLevel = level
      default:
        if argument.hasPrefix("-") { throw UsageError(message: "Unknown option '\(argument)'") }
        throw UsageError(message: "Unexpected argument '\(argument)'")
      }
    }
    return .run(options)
  }

  private static func nonEmpty(_ value: String, _ name: String) throws(UsageError) -> String {
    guard !value.isEmpty else { throw UsageError(message: "Empty value for '\(name)'") }
    return value
  }
}
