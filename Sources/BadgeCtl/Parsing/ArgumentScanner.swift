/// What the whole command line asks for.
enum Invocation {
  /// A command, read into its type, and the socket `--socket` named.
  case run(any Subcommand, socket: String?)
  case version
  /// `--generate-completion <shell>`: print a completion script.
  case completion(CompletionScript.Shell)
}

/// Splits `badgectl`'s command line: first the global options and the command's name, then the
/// command's own arguments against its spec. The command's type reads the result into its
/// fields (`Subcommand.init`), so every error in the line is found before anything runs.
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
      let (name, inline) = optionAndValue(argument)
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
        return .run(HelpCommand(topic: commandName.flatMap(CommandSpec.named)), socket: socket)
      default:
        if commandName == nil && !argument.hasPrefix("-") {
          commandName = argument
        } else {
          leftover.append(argument)
          // A command's option keeps its value: given before the command (`badgectl --format
          // json get mail`), the value is not the command's name; after it, a value such as
          // `-h` is not a global option.
          if inline == nil, argument.hasPrefix("-"), takesValue(name, command: commandName),
            let value = rest.popFirst()
          {
            leftover.append(value)
          }
        }
      }
    }

    guard let commandName else {
      if let first = leftover.first { throw UsageError("Unknown option '\(first)'") }
      return .run(HelpCommand(topic: nil), socket: socket)
    }
    guard let type = Subcommands.named(commandName) else {
      throw UsageError(CommandSpec.unknownCommand(commandName))
    }
    var parsed = try split(leftover, for: type.spec)
    let command = try type.init(&parsed)
    try parsed.finish()
    return .run(command, socket: socket)
  }

  /// Splits the arguments of one command against its spec: positionals, option values and
  /// flags. Checks the shape of the line (every option known, every value present, the number
  /// of positionals); what the values say is checked as the command reads them.
  static func split(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> CommandArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var rest = arguments[...]
    var onlyPositionals = false
    while let argument = rest.popFirst() {
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || isNegativeNumber(argument) {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      let (name, inline) = optionAndValue(argument)
      guard let option = spec.options.first(where: { $0.name == name || $0.short == name }) else {
        var message = "Unknown option '\(name)'"
        let names = (spec.options + CommandSpec.globalOptions).map(\.name)
        if let suggestion = Suggestion.closest(to: name, among: names) { message += ". Did you mean '\(suggestion)'?" }
        throw UsageError(message, command: spec.name)
      }
      if let valueName = option.valueName {
        guard let value = inline ?? rest.popFirst() else {
          throw UsageError("Missing value for '\(option.name) <\(valueName)>'", command: spec.name)
        }
        values[option.name] = value
      } else {
        guard inline == nil else {
          throw UsageError("The flag '\(option.name)' takes no value", command: spec.name)
        }
        flags.insert(option.name)
      }
    }
    let count = positionals.count
    if count < spec.positionals.lowerBound {
      throw UsageError("Missing expected argument '\(spec.argumentName(at: count))'", command: spec.name)
    }
    if count > spec.positionals.upperBound {
      throw UsageError("Unexpected argument '\(positionals[spec.positionals.upperBound])'", command: spec.name)
    }
    return CommandArguments(spec: spec, positionals: positionals, values: values, flags: flags)
  }

  /// Whether `name` is an option that takes a value: one of `command`, once it is known, else
  /// of any command. (A one-shot command's line reads only its own spec, not the whole table.)
  private static func takesValue(_ name: String, command: String?) -> Bool {
    let specs = command.flatMap(Subcommands.named).map { [$0.spec] } ?? CommandSpec.all
    return specs.contains { $0.options.contains { ($0.name == name || $0.short == name) && $0.valueName != nil } }
  }

  /// `--name=value` → (`--name`, `value`).
  private static func optionAndValue(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<eq]), String(argument[argument.index(after: eq)...]))
  }

  /// A negative number is a (bad) value, not an option: `badgectl set mail -1`.
  private static func isNegativeNumber(_ argument: String) -> Bool {
    argument.count > 1 && argument.dropFirst().allSatisfy(\.isNumber)
  }
}
