/// Why a `badgectl` command failed, and the exit status that says so.
package enum CtlError: Error {
  /// The daemon could not be reached: exit 69 (`EX_UNAVAILABLE`).
  case unreachable(socket: String, cause: String)
  /// The daemon answered `ERR`, or would: a request its own parser refuses is not sent
  /// (`configure`'s settings), and is reported in its words. Exit 1.
  case daemon(code: String, message: String)
  /// The arguments are wrong: exit 64 (`EX_USAGE`).
  case usage(UsageError)
  /// `open` found no way to start the channel's app: exit 1.
  case cannotOpen(channel: String, reason: String)
  /// The program that runs `command` (`SessionProgram`) could not be started from any of the
  /// places it may be: exit 69 (`EX_UNAVAILABLE`: a support program does not exist).
  case missingProgram(command: String, program: String, causes: [String])
  /// The config file is refused (`web` reads `[web]`): exit 78 (`EX_CONFIG`), as the program
  /// that owns the section would.
  case config(String)
  /// A command's work failed for a reason it words (a token that does not exist, a file that
  /// cannot be written): exit 1.
  case failed(String)

  enum ExitStatus {
    static let success: Int32 = 0
    static let daemonError: Int32 = 1
    static let usage: Int32 = 64
    static let unreachable: Int32 = 69
    static let config: Int32 = 78
  }

  var exitStatus: Int32 {
    switch self {
    case .unreachable, .missingProgram: return ExitStatus.unreachable
    case .daemon, .cannotOpen, .failed: return ExitStatus.daemonError
    case .usage: return ExitStatus.usage
    case .config: return ExitStatus.config
    }
  }

  /// The text for standard error.
  var message: String {
    switch self {
    case .unreachable(let socket, let cause):
      return "Error: Cannot reach badged at '\(socket)': \(cause).\n"
        + "  Start it with 'systemctl --user start badged.socket' or 'badged', or pass --socket.\n"
    case .daemon(let code, let message):
      return "Error: \(message) (\(code))\n"
    case .usage(let error):
      return HelpText.error(error)
    case .cannotOpen(let channel, let reason):
      return "Error: Cannot open the app of '\(channel)': \(reason)\n"
    case .config(let message):
      return "Error: \(message)\n"
    case .failed(let message):
      return "Error: \(message)\n"
    case .missingProgram(let command, let program, let causes):
      return "Error: 'badgectl \(command)' runs in \(program), which could not be started: "
        + (causes.isEmpty ? "badgectl's own file is unknown" : causes.joined(separator: "; ")) + ".\n"
    }
  }
}
