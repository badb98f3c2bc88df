import BadgeLog

/// The command line of a program that talks to badged over its socket and reads a section of
/// its config file: `badged-mqtt` and `badged-sources`, which differ only in their help.
public struct ClientOptions: Equatable {
  public var socketPath: String?
  public var configFile: String?
  public var logLevel: Logger.Level = .info

  public init(socketPath: String? = nil, configFile: String? = nil, logLevel: Logger.Level = .info) {
    self.socketPath = socketPath
    self.configFile = configFile
    self.logLevel = logLevel
  }

  /// The synopsis of `program`, which takes these options.
  public static func usage(of program: String) -> String {
    "\(program) [--socket <path>] [--config <file>] [--log-level <level>]"
  }

  /// Parses the arguments after the program name.
  public static func parse(_ arguments: [String]) throws(ProgramOptions.UsageError) -> ProgramAction<ClientOptions> {
    var options = ClientOptions()
    var action: ProgramAction<ClientOptions>?
    try ProgramOptions.read(arguments, valued: ["--socket", "--config", "--log-level"]) {
      option throws(ProgramOptions.UsageError) in
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
