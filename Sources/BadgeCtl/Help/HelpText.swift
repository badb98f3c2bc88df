/// The help screens and usage errors, in the shape swift-argument-parser users know:
/// OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS.
enum HelpText {
  static let overview = "Changes and watches the unread counts that badged keeps."
  static let toolUsage = "badgectl [--socket <path>] <subcommand>"

  /// `badgectl --help`.
  static func tool() -> String {
    var text = "OVERVIEW: \(overview)\n\nUSAGE: \(toolUsage)\n\nOPTIONS:\n"
    for option in CommandSpec.globalOptions { text += row(optionLabel(option), option.help) }
    text += row("--version", "Show the version.")
    text += "\nSUBCOMMANDS:\n"
    for spec in CommandSpec.all { text += row(spec.name, spec.abstract) }
    text += "\n  See 'badgectl help <subcommand>' for detailed help.\n"
    return text
  }

  /// `badgectl help <command>` and `badgectl <command> --help`.
  static func command(_ spec: CommandSpec) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n"
    if !spec.discussion.isEmpty { text += "\n" + spec.discussion + "\n" }
    text += "\nUSAGE: \(usage(spec))\n"
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments { text += row(argument.name, argument.help) }
    }
    text += "\nOPTIONS:\n"
    for option in spec.options + CommandSpec.globalOptions { text += row(optionLabel(option), option.help) }
    return text
  }

  static func usage(_ spec: CommandSpec) -> String {
    var line = "badgectl \(spec.name)"
    if !spec.usage.isEmpty { line += " " + spec.usage }
    let flags = spec.options.filter { !spec.usage.contains($0.name) }
    for option in flags {
      line += option.valueName.map { " [\(option.name) <\($0)>]" } ?? " [\(option.name)]"
    }
    return line
  }

  /// The text of a usage error: the message, the usage line and where to read more.
  static func error(_ error: UsageError) -> String {
    let spec = error.command.flatMap(CommandSpec.named)
    let usageLine = spec.map(usage) ?? toolUsage
    let more = spec.map { "badgectl \($0.name) --help" } ?? "badgectl --help"
    return "Error: \(error.message)\nUsage: \(usageLine)\n  See '\(more)' for more information.\n"
  }

  private static func optionLabel(_ option: CommandSpec.Option) -> String {
    var label = option.short.map { "\($0), " } ?? ""
    label += option.name
    if let value = option.valueName { label += " <\(value)>" }
    return label
  }

  /// One aligned row: a two-space indent, the label, the help from column 26, wrapped at 80.
  private static func row(_ label: String, _ help: String) -> String {
    let column = 26
    var lines = wrap(help, width: 80 - column)
    var text = "  " + label
    if text.count >= column - 1 {
      text += "\n"
    } else {
      text += String(repeating: " ", count: column - text.count) + lines.removeFirst() + "\n"
    }
    for line in lines { text += String(repeating: " ", count: column) + line + "\n" }
    return text
  }

  private static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if !current.isEmpty && current.count + 1 + word.count > width {
        lines.append(current)
        current = ""
      }
      current += current.isEmpty ? String(word) : " " + word
    }
    lines.append(current)
    return lines
  }
}
