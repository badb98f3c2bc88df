/// One command's arguments as `ArgumentScanner` split them against its spec: positionals in
/// order, option values and flags by option. A command reads them into its typed fields; each
/// read checks the text with the value's kind and words a refusal as a usage error of the
/// command, naming the argument or option.
struct CommandArguments {
  let spec: CommandSpec
  private var positionals: ArraySlice<String>
  /// How many positionals have been read, for naming a missing one.
  private var position = 0
  /// Option values by long name (`--format` → `json`).
  private let values: [String: String]
  /// Flags given, by long name.
  private let flags: Set<String>
  /// The options the command read: it must read every one its spec declares (see `finish`).
  private var read: Set<String> = []

  init(spec: CommandSpec, positionals: [String], values: [String: String] = [:], flags: Set<String> = []) {
    self.spec = spec
    self.positionals = positionals[...]
    self.values = values
    self.flags = flags
  }

  // MARK: - Positional arguments

  /// The next positional argument as a value of `kind`, or `nil` when there is none left.
  mutating func next<Value>(_ kind: ValueKind<Value>) throws(UsageError) -> Value? {
    guard let text = positionals.popFirst() else { return nil }
    position += 1
    do throws(ValueRefusal) {
      return try kind.value(of: text)
    } catch {
      throw usageError(error.message(opening: "Invalid \(kind.noun) '\(text)'"))
    }
  }

  /// The next positional argument, which the command cannot do without. The spec's count of
  /// positionals has made sure it is there; should it not be, it is reported missing.
  mutating func required<Value>(_ kind: ValueKind<Value>) throws(UsageError) -> Value {
    let name = spec.argumentName(at: position)
    guard let value = try next(kind) else { throw usageError("Missing expected argument '\(name)'") }
    return value
  }

  /// Every positional argument left, each a value of `kind`.
  mutating func rest<Value>(_ kind: ValueKind<Value>) throws(UsageError) -> [Value] {
    var values: [Value] = []
    while let value = try next(kind) { values.append(value) }
    return values
  }

  /// Takes the next positional argument when it is `word` (`until` in `dnd on until 18:00`).
  mutating func take(_ word: String) -> Bool {
    guard positionals.first == word else { return false }
    positionals.removeFirst()
    position += 1
    return true
  }

  /// Whether any positional argument is left to read.
  var hasMore: Bool { !positionals.isEmpty }

  // MARK: - Options

  /// Whether `flag` was given.
  mutating func flag(_ flag: Flag) -> Bool {
    note(flag.row)
    return flags.contains(flag.row.name)
  }

  /// The value of `option`, or `nil` when it was not given.
  mutating func value<Value>(_ option: ValueOption<Value>) throws(UsageError) -> Value? {
    note(option.row)
    guard let text = values[option.row.name], let valueName = option.row.valueName else { return nil }
    do throws(ValueRefusal) {
      return try option.kind.value(of: text)
    } catch {
      throw usageError(error.message(opening: "Invalid value '\(text)' for '\(option.row.name) <\(valueName)>'"))
    }
  }

  private mutating func note(_ option: CommandSpec.Option) {
    assert(spec.options.contains { $0.name == option.name }, "\(spec.name) reads \(option.name), which its spec lacks")
    read.insert(option.name)
  }

  // MARK: - The end

  /// A usage error of this command.
  func usageError(_ message: String) -> UsageError {
    UsageError(message, command: spec.name)
  }

  /// Called once the command has read what it takes: a positional argument left over is one
  /// too many. (Every option of the spec must have been read: one that is not would be
  /// accepted and ignored, which is a mistake in the command's code, not in the line.)
  func finish() throws(UsageError) {
    assert(
      spec.options.allSatisfy { read.contains($0.name) },
      "\(spec.name) does not read every option its spec declares")
    if let extra = positionals.first { throw usageError("Unexpected argument '\(extra)'") }
  }
}

extension CommandSpec {
  /// The name of the positional argument at `index`, for "Missing expected argument": the
  /// last one stands for any after it.
  func argumentName(at index: Int) -> String {
    arguments.indices.contains(index) ? arguments[index].name : arguments.last?.name ?? "argument"
  }
}
