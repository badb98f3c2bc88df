import BadgeCore

/// A command of `badgectl` as data: its name, arguments, options and help texts. Each command
/// type owns its spec (`Subcommand.spec`); the table of them all, `CommandSpec.all`, is what the
/// scanner, the help screens and the shell completions read, and a test checks that
/// badgectl(1) describes every command and option in it.
package struct CommandSpec: Sendable {
  /// An option's row in the table. Commands declare options as `Flag`s and `ValueOption`s,
  /// which make their rows; the global options are rows only, since the scanner reads them.
  struct Option: Sendable {
    /// `--format`
    let name: String
    /// `-f`, if any.
    let short: String?
    /// `<format>` for options that take a value; `nil` for flags.
    let valueName: String?
    let help: String
    /// The values it accepts, when they are a fixed set (for completions).
    let choices: [String]

    init(_ name: String, short: String? = nil, value: String? = nil, choices: [String] = [], help: String) {
      self.name = name
      self.short = short
      self.valueName = value
      self.choices = choices
      self.help = help
    }
  }

  /// A positional argument, for the help screen and the completions.
  struct Argument: Sendable {
    /// What the argument is, for completion.
    enum Kind: Sendable {
      case channel, channelOrGlob, setting, command, number
      /// One of a command's own words (`dnd on`).
      case word
    }

    let name: String
    let kind: Kind
    let help: String
  }

  package let name: String
  let abstract: String
  let discussion: String
  /// The arguments after the command name, as the USAGE line shows them.
  let usage: String
  let arguments: [Argument]
  let options: [Option]
  /// How many positional arguments it takes.
  let positionals: ClosedRange<Int>

  init(
    name: String, abstract: String, discussion: String = "", usage: String = "", arguments: [Argument] = [],
    options: [any OptionDeclaration] = [], positionals: ClosedRange<Int> = 0...0
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.usage = usage
    self.arguments = arguments
    self.options = options.map(\.row)
    self.positionals = positionals
  }
}

extension CommandSpec {
  /// Every command, in the order `badgectl --help` lists them.
  static let all: [CommandSpec] = Subcommands.all.map { $0.spec }

  static func named(_ name: String) -> CommandSpec? {
    all.first { $0.name == name }
  }

  /// The options every command accepts.
  static let globalOptions: [Option] = [
    Option(
      "--socket", value: "path",
      help: "The daemon's socket. (default: $BADGED_SOCKET, else $XDG_RUNTIME_DIR/badged/badged.sock)"),
    Option("--help", short: "-h", help: "Show help information."),
  ]

  static let channelArgument = Argument(
    name: "<channel>", kind: .channel,
    help: "A channel name: 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit.")

  static let patternsArgument = Argument(
    name: "<channel or glob>", kind: .channelOrGlob, help: "A channel name, or a pattern such as 'app:*'.")

  /// `--format` of the commands that print channel states.
  static let formatOption = ValueOption<SnapshotFormat>(
    "--format", value: "format", .choice,
    help: "plain (one line per channel) or json (one object per line). (default: plain)")

  /// `--id` of the commands that change a count: the request's id, so that a retry counts once.
  static let idOption = ValueOption<String>(
    "--id", value: "id", .token,
    help:
      "An id for the request, 1-64 characters from A-Z a-z 0-9 . _ : -. Sent again with the same id (a retry), "
      + "it changes nothing and prints the state as it is."
  )

  /// `--upto` of `clear`, `seen` and `open`: only the items up to a running total.
  static let upToOption = ValueOption<Int>(
    "--upto", value: "total", .number(0...Int.max, noun: "total"),
    help: "Only the items up to this running total (the total of the state that was shown); those that came after stay."
  )

  /// `--no-motion` of `watch` and `top`.
  static let noMotionFlag = Flag(
    "--no-motion", help: "Show end states only, with no animation; also when NO_MOTION is set.")

  /// `1-2147483647`: a range as the help texts write it.
  static func range(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)-\(range.upperBound)" }

  /// "Unknown command 'x'.", with a "Did you mean" hint when one is close.
  static func unknownCommand(_ name: String) -> String {
    var message = "Unknown command '\(name)'."
    if let suggestion = Suggestion.closest(to: name, among: all.map(\.name)) {
      message += " Did you mean '\(suggestion)'?"
    }
    return message
  }
}
