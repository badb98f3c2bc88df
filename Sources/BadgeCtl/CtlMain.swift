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
    if command.spec.name == "stats" {
      try StatsCommand.run(try StatsSettings(command), socket: socket)
      return
    }
    if command.spec.name == "top" {
      try TopCommand.run(command, socket: socket)
      return
    }
    guard command.spec.name != "watch" else {
      let patterns = try command.positionals.map { (text) throws(CtlError) in try pattern(text, command) }
      let settings = try WatchSettings(command)
      try Watcher.watch(socket: socket, patterns: patterns, settings: settings).run()
      return
    }
    let words = command.spec.name == "open" ? try OpenCommand.run(command, socket: socket) : try requestWords(for: command)
    let request = try requestLine(words, command)
    let replies = try DaemonConnection(socket: socket).request(request)
    let format = SnapshotFormat(rawValue: command.value("--format") ?? "plain") ?? .plain
    // One write for all the lines: `list` of many channels is one system call, not one each.
    Output.write(replies.compactMap { reply in
      switch reply {
      case .state(let snapshot): return format.line(snapshot) + "\n"
      case .dnd(let dnd, _): return format.line(dnd) + "\n"
      default: return nil
      }
    }.joined())
  }

  /// The words of the request for a one-shot command, with its arguments checked here first
  /// so that a typo is a usage error (64) that never reaches the daemon.
  static func requestWords(for command: ParsedCommand) throws(CtlError) -> [String] {
    let args = command.positionals
    switch command.spec.name {
    case "incr", "decr":
      let name = try channel(args[0], command)
      let amount = args.count > 1 ? try number(args[1], command, allowZero: false) : 1
      return [command.spec.name.uppercased(), name, String(amount)]
    case "set":
      return ["SET", try channel(args[0], command), String(try number(args[1], command, allowZero: true))]
    case "clear": return ["CLEAR", try channelOrAll(command)]
    case "get": return ["GET", try channel(args[0], command)]
    case "list": return ["LIST"]
    case "mute": return ["MUTE", try channel(args[0], command)]
    case "unmute": return ["UNMUTE", try channel(args[0], command)]
    case "seen": return ["SEEN", try channelOrAll(command)]
    case "pulse":
      let name = try channel(args[0], command)
      guard args.count > 1 else { return ["PULSE", name] }
      let ms = try wholeNumber(args[1], in: 1...Limits.pulseMs.upperBound, command: "pulse") { "Invalid length '\($0)'" }
      return ["PULSE", name, String(ms)]
    case "dnd": return try DNDArguments.requestWords(args)
    case "ping": return ["PING"]
    case "reload": return ["RELOAD"]
    case "configure":
      let name = try channel(args[0], command)
      for setting in args.dropFirst() where !setting.contains("=") {
        throw .usage(UsageError("Expected <key>=<value>, got '\(setting)'", command: command.spec.name))
      }
      return ["CONFIGURE", name] + args.dropFirst()
    default:
      throw .usage(UsageError("Unknown command '\(command.spec.name)'"))
    }
  }

  /// `<channel> | --all` (`clear`, `seen`): the channel, or `*` for every channel.
  static func channelOrAll(_ command: ParsedCommand) throws(CtlError) -> String {
    let name = command.spec.name
    if command.has("--all") {
      guard command.positionals.isEmpty else {
        throw .usage(UsageError("Give a channel or --all, not both", command: name))
      }
      return "*"
    }
    guard let channelName = command.positionals.first else {
      throw .usage(UsageError("Missing expected argument '<channel>' (or --all)", command: name))
    }
    return try channel(channelName, command)
  }

  /// The request line of `words`. A word holding a blank or a control character would be split
  /// into more words, or end the line and start another request, on the daemon's side: it is
  /// refused here, whatever command it came from.
  static func requestLine(_ words: [String], _ command: ParsedCommand) throws(CtlError) -> String {
    for word in words where word.isEmpty || word.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
      throw .usage(UsageError(
        "Invalid argument '\(word.debugDescription.dropFirst().dropLast())'; arguments hold no spaces or control characters",
        command: command.spec.name))
    }
    return words.joined(separator: " ")
  }

  static func channel(_ text: String, _ command: ParsedCommand) throws(CtlError) -> String {
    guard ChannelName(text) != nil else {
      throw .usage(UsageError(
        "Invalid channel name '\(text)'; \(ChannelName.namingRule)",
        command: command.spec.name))
    }
    return text
  }

  static func pattern(_ text: String, _ command: ParsedCommand) throws(CtlError) -> ChannelPattern {
    guard let pattern = ChannelPattern(text) else {
      throw .usage(UsageError(
        "Invalid channel or pattern '\(text)'; \(ChannelName.namingRule), or * and ?",
        command: command.spec.name))
    }
    return pattern
  }

  static func number(_ text: String, _ command: ParsedCommand, allowZero: Bool) throws(CtlError) -> Int {
    try wholeNumber(text, in: (allowZero ? 0 : 1)...Limits.maxCount, command: command.spec.name) {
      "Invalid number '\($0)'"
    }
  }

  /// `text` as a whole number within `range`, or a usage error that begins with `invalid(text)`
  /// and names the range.
  static func wholeNumber(
    _ text: String, in range: ClosedRange<Int>, command: String, invalid: (String) -> String
  ) throws(CtlError) -> Int {
    guard let value = DecimalParser.parse(text.utf8), range.contains(value) else {
      throw .usage(UsageError(
        "\(invalid(text)); expected a whole number from \(range.lowerBound) to \(range.upperBound)", command: command))
    }
    return value
  }
}
