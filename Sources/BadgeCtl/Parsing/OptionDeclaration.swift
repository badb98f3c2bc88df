/// An option as a command declares it: its row in the command table (for the scanner, the
/// help screens and the completions), and how a command reads it (`CommandArguments.flag`,
/// `CommandArguments.value`).
///
/// A command lists its declarations in its `CommandSpec` and reads each into a typed field, so
/// an option is named once: by its declaration, never by its text.
protocol OptionDeclaration: Sendable {
  var row: CommandSpec.Option { get }
}

/// An option that takes no value: it is given or not (`--all`, `--no-motion`).
struct Flag: OptionDeclaration {
  let row: CommandSpec.Option

  init(_ name: String, help: String) {
    row = CommandSpec.Option(name, help: help)
  }
}

/// An option that takes a value of one kind (`--format json`, `--fps 30`).
struct ValueOption<Value>: OptionDeclaration {
  let row: CommandSpec.Option
  let kind: ValueKind<Value>

  /// - Parameters:
  ///   - name: `--format`
  ///   - value: what the help calls the value: `format` shows as `--format <format>`.
  ///   - kind: what the value must be; a fixed set of words is offered by the completions.
  init(_ name: String, value: String, _ kind: ValueKind<Value>, help: String) {
    row = CommandSpec.Option(name, value: value, choices: kind.choices, help: help)
    self.kind = kind
  }
}
