import BadgeCore
import BadgeProtocol
import BadgeSystem

/// `badgectl`: parses the command line, runs one command, and returns the exit status.
public enum BadgeCtl {
  public static func main(_ arguments: [String]) -> Int32 {
    Signals.ignoreBrokenPipe()
    do throws(CtlError) {
      let invocation: Invocation
      do throws(UsageError) {
        invocation = try ArgumentScanner.parse(arguments)
      } catch {
        throw .usage(error)
      }
      switch invocation {
      case .version:
        Output.line("badgectl \(BadgedVersion.current)")
      case .completion(let shell):
        Output.write(CompletionScript.script(for: shell))
      case .help(let command):
        Output.write(command.flatMap(CommandSpec.named).map(HelpText.command) ?? HelpText.tool())
      case .run(let parsed, let socket):
        try run(parsed, socket: socket ?? XDGPaths.defaultSocket)
      }
      return CtlError.ExitStatus.success
    } catch {
      Output.error(error.message)
      return error.exitStatus
    }
  }

  static func run(_ command: ParsedCommand, socket: String) throws(CtlError) {
    let format = SnapshotFormat(rawValue: command.value("--format") ?? "plain") ?? .plain
    switch command.spec.name {
    case "watch":
      let patterns = try command.positionals.map { (text) throws(CtlError) in try pattern(text, command) }
      let settings = try WatchSettings(command)
      try Watcher(socket: socket, patterns: patterns, settings: settings).run()
    case "ping":
      _ = try DaemonConnection(socket: socket).request("PING")
    case "reload":
      _ = try DaemonConnection(socket: socket).request("RELOAD")
    default:
      let request = try requestLine(for: command)
      let replies = try DaemonConnection(socket: socket).request(request)
      for case .state(let snapshot) in replies { Output.line(format.line(snapshot)) }
    }
  }

  /// The protocol line for a one-shot command, with its arguments checked here first so that
  /// a typo is a usage error (64) that never reaches the daemon.
  static func requestLine(for command: ParsedCommand) throws(CtlError) -> String {
    let args = command.positionals
    switch command.spec.name {
    case "incr", "decr":
      let name = try channel(args[0], command)
      let amount = args.count > 1 ? try number(args[1], command, allowZero: false) : 1
      return "\(command.spec.name.uppercased()) \(name) \(amount)"
    case "set":
      return "SET \(try channel(args[0], command)) \(try number(args[1], command, allowZero: true))"
    case "clear":
      if command.has("--all") {
        guard args.isEmpty else {
          throw .usage(UsageError("Give a channel or --all, not both", command: "clear"))
        }
        return "CLEAR *"
      }
      guard let name = args.first else {
        throw .usage(UsageError("Missing expected argument '<channel>' (or --all)", command: "clear"))
      }
      return "CLEAR \(try channel(name, command))"
    case "get": return "GET \(try channel(args[0], command))"
    case "list": return "LIST"
    case "mute": return "MUTE \(try channel(args[0], command))"
    case "unmute": return "UNMUTE \(try channel(args[0], command))"
    case "configure":
      let name = try channel(args[0], command)
      for setting in args.dropFirst() where !setting.contains("=") || setting.contains(" ") {
        throw .usage(UsageError("Expected <key>=<value>, got '\(setting)'", command: command.spec.name))
      }
      return "CONFIGURE \(name) " + args.dropFirst().joined(separator: " ")
    default:
      throw .usage(UsageError("Unknown command '\(command.spec.name)'"))
    }
  }

  static func channel(_ text: String, _ command: ParsedCommand) throws(CtlError) -> String {
    guard ChannelName(text) != nil else {
      throw .usage(UsageError(
        "Invalid channel name '\(text)'; names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit",
        command: command.spec.name))
    }
    return text
  }

  static func pattern(_ text: String, _ command: ParsedCommand) throws(CtlError) -> ChannelPattern {
    guard let pattern = ChannelPattern(text) else {
      throw .usage(UsageError(
        "Invalid channel or pattern '\(text)'; use name characters (A-Z a-z 0-9 . _ - :) and * or ?",
        command: command.spec.name))
    }
    return pattern
  }

  static func number(_ text: String, _ command: ParsedCommand, allowZero: Bool) throws(CtlError) -> Int {
    let range = (allowZero ? 0 : 1)...Limits.maxCount
    guard let value = DecimalParser.parse(text.utf8), range.contains(value) else {
      throw .usage(UsageError(
        "Invalid number '\(text)'; expected a whole number from \(range.lowerBound) to \(range.upperBound)",
        command: command.spec.name))
    }
    return value
  }
}
