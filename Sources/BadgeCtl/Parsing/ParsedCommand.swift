/// A command line split into a command, its positional arguments and its options, checked
/// against the command's `CommandSpec`.
struct ParsedCommand {
  let spec: CommandSpec
  var positionals: [String] = []
  /// Option values by long name (`--format` → `json`).
  var values: [String: String] = [:]
  /// Flags given, by long name.
  var flags: Set<String> = []

  func value(_ name: String) -> String? { values[name] }
  func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A usage error: a message, and the command whose usage to show (`nil` for the tool's).
struct UsageError: Error, Equatable {
  let message: String
  let command: String?

  init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }
}

/// What the whole command line asks for.
enum Invocation {
  case run(ParsedCommand, socket: String?)
  case help(command: String?)
  case version
  /// `--generate-completion <shell>`: print a completion script.
  case completion(CompletionScript.Shell)
}

enum ArgumentScanner {
  /// Parses `badgectl`'s arguments (without the program name). Global options may come before
  /// or after the command.
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var socket: String?
    var rest = arguments[...]
    var commandName: String?
    var leftover: [String] = []
    var sawDoubleDash = false

    // First pass: the global options and the command name.
    while let argument = rest.popFirst() {
      if sawDoubleDash {
        leftover.append(argument)
        continue
      }
      let (name, inline) = split(argument)
      switch name {
      case "--":
        sawDoubleDash = true
        leftover.append(argument)
      case "--socket":
        guard let value = inline ?? rest.popFirst(), !value.isEmpty else {
          throw UsageError("Missing value for '--socket <path>'")
        }
        socket = value
      case "--version" where commandName == nil:
        return .version
      case "--generate-completion" where commandName == nil:
        let shells = CompletionScript.Shell.allCases.map(\.rawValue)
        guard let value = inline ?? rest.popFirst(), let shell = CompletionScript.Shell(rawValue: value) else {
          throw UsageError("Expected '--generate-completion <shell>' with one of \(shells.joined(separator: ", "))")
        }
        return .completion(shell)
      case "-h", "--help":
        return .help(command: commandName)
      default:
        if commandName == nil && !argument.hasPrefix("-") {
          commandName = argument
        } else {
          leftover.append(argument)
          // A command's option given before the command (`badgectl --format json get mail`):
          // its value travels with it rather than being taken for the command name.
          if inline == nil, takesValue(name), let value = rest.popFirst() { leftover.append(value) }
        }
      }
    }

    guard let commandName else {
      if let first = leftover.first { throw UsageError("Unknown option '\(first)'") }
      return .help(command: nil)
    }
    guard let spec = CommandSpec.named(commandName) else { throw unknownCommand(commandName) }
    if spec.name == "help" {
      guard leftover.count <= 1 else { throw UsageError("Unexpected argument '\(leftover[1])'", command: "help") }
      if let topic = leftover.first, CommandSpec.named(topic) == nil { throw unknownCommand(topic) }
      return .help(command: leftover.first)
    }
    return .run(try parseCommand(spec, leftover), socket: socket)
  }

  /// "Unknown command 'x'.", with a "Did you mean" hint when one is close.
  private static func unknownCommand(_ name: String) -> UsageError {
    var message = "Unknown command '\(name)'."
    if let suggestion = Suggestion.closest(to: name, among: CommandSpec.all.map(\.name)) {
      message += " Did you mean '\(suggestion)'?"
    }
    return UsageError(message)
  }

  /// Parses the arguments of one command against its spec.
  static func parseCommand(_ spec: CommandSpec, _ arguments: [String]) throws(UsageError) -> ParsedCommand {
    var parsed = ParsedCommand(spec: spec)
    var rest = arguments[...]
    var onlyPositionals = false
    while let argument = rest.popFirst() {
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || isNumber(argument) {
        if argument == "--" && !onlyPositionals {
          onlyPositionals = true
          continue
        }
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      let (name, inline) = split(argument)
      guard let option = spec.options.first(where: { $0.name == name || $0.short == name }) else {
        var message = "Unknown option '\(name)'"
        let names = spec.options.map(\.name)
        if let suggestion = Suggestion.closest(to: name, among: names) { message += ". Did you mean '\(suggestion)'?" }
        throw UsageError(message, command: spec.name)
      }
      if let valueName = option.valueName {
        guard let value = inline ?? rest.popFirst() else {
          throw UsageError("Missing value for '\(option.name) <\(valueName)>'", command: spec.name)
        }
        if !option.choices.isEmpty && !option.choices.contains(value) {
          throw UsageError(
            "Invalid value '\(value)' for '\(option.name) <\(valueName)>'; expected one of \(option.choices.joined(separator: ", "))",
            command: spec.name)
        }
        parsed.values[option.name] = value
      } else {
        guard inline == nil else {
          throw UsageError("The flag '\(option.name)' takes no value", command: spec.name)
        }
        parsed.flags.insert(option.name)
      }
    }
    let count = parsed.positionals.count
    if count < spec.positionals.lowerBound {
      throw UsageError("Missing expected argument '\(missingArgumentName(spec, count))'", command: spec.name)
    }
    if count > spec.positionals.upperBound {
      throw UsageError("Unexpected argument '\(parsed.positionals[spec.positionals.upperBound])'", command: spec.name)
    }
    return parsed
  }

  private static func missingArgumentName(_ spec: CommandSpec, _ given: Int) -> String {
    spec.arguments.indices.contains(given) ? spec.arguments[given].name : spec.arguments.last?.name ?? "argument"
  }

  /// Whether any command has an option `name` that takes a value.
  private static func takesValue(_ name: String) -> Bool {
    CommandSpec.all.contains { $0.options.contains { ($0.name == name || $0.short == name) && $0.valueName != nil } }
  }

  /// `--name=value` → (`--name`, `value`).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
  }

  /// A negative number is a (bad) value, not an option: `badgectl set mail -1`.
  private static func isNumber(_ argument: String) -> Bool {
    argument.count > 1 && argument.dropFirst().allSatisfy(\.isNumber)
  }
}

/// "Did you mean …?" hints.
enum Suggestion {
  /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(word, $0)) }.min { $0.1 < $1.1 }
    guard let (best, score) = scored else { return nil }
    return score <= max(1, min(2, word.count / 3)) || best.hasPrefix(word) && word.count >= 2 ? best : nil
  }

  /// Damerau–Levenshtein distance (optimal string alignment), so a swapped pair counts as one.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
