import BadgeCore
import BadgeRender

/// Why the text of an argument or an option's value was refused.
enum ValueRefusal: Error, Equatable {
  /// It is not a value of its kind; this says what is expected, after "Invalid <noun> 'text'; "
  /// for an argument or "Invalid value 'text' for '<option> <value>'; " for an option.
  case expected(String)
  /// A message that says everything itself (a template's own error, an unknown command).
  case message(String)

  /// The refusal's message: `opening` ("Invalid number '0'") and what was expected, or the
  /// message of its own.
  func message(opening: String) -> String {
    switch self {
    case .expected(let expectation): return "\(opening); \(expectation)"
    case .message(let message): return message
    }
  }
}

/// A kind of value that arguments and options take: the type it reads as, and the one place
/// where its text is checked and a refusal worded.
struct ValueKind<Value>: Sendable {
  /// What an argument of this kind is called when it is refused: "Invalid <noun> 'x'; …".
  let noun: String
  /// The words it takes when they are a fixed set, for help and completions; else empty.
  let choices: [String]
  private let read: @Sendable (String) throws(ValueRefusal) -> Value

  init(noun: String, choices: [String] = [], read: @escaping @Sendable (String) throws(ValueRefusal) -> Value) {
    self.noun = noun
    self.choices = choices
    self.read = read
  }

  /// The value `text` stands for.
  func value(of text: String) throws(ValueRefusal) -> Value {
    try read(text)
  }
}

extension ValueKind where Value == ChannelName {
  /// A channel name: `mail`, `app:org.example.App`.
  static var channel: Self {
    Self(noun: "channel name") { (text) throws(ValueRefusal) in
      guard let name = ChannelName(text) else { throw .expected(ChannelName.namingRule) }
      return name
    }
  }
}

extension ValueKind where Value == ChannelPattern {
  /// A channel name, or a glob with `*` and `?`.
  static var pattern: Self {
    Self(noun: "channel or pattern") { (text) throws(ValueRefusal) in
      guard let pattern = ChannelPattern(text) else { throw .expected("\(ChannelName.namingRule), or * and ?") }
      return pattern
    }
  }
}

extension ValueKind where Value == Int {
  /// A whole number within `range`; `noun` says what it counts when it is refused.
  static func number(_ range: ClosedRange<Int>, noun: String = "number") -> Self {
    Self(noun: noun) { (text) throws(ValueRefusal) in
      guard let value = DecimalParser.parse(text.utf8), range.contains(value) else {
        throw .expected("expected a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    }
  }
}

extension ValueKind where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
  /// One of the cases of `Value`, by its raw value: `--format json`.
  static var choice: Self {
    let words = Value.allCases.map(\.rawValue)
    return Self(noun: "value", choices: words) { (text) throws(ValueRefusal) in
      guard let value = Value(rawValue: text) else {
        throw .expected("expected one of \(words.joined(separator: ", "))")
      }
      return value
    }
  }
}

extension ValueKind where Value == Template {
  /// A `watch --template`: its placeholders are checked, and its own error says what is wrong.
  static var template: Self {
    Self(noun: "template") { (text) throws(ValueRefusal) in
      do throws(TemplateError) {
        return try Template(text)
      } catch {
        throw .message(error.description)
      }
    }
  }
}

extension ValueKind where Value == String {
  /// Any text, taken as it is (a command for a bar to run).
  static var text: Self {
    Self(noun: "value") { $0 }
  }

  /// A word of a command's own small grammar (`dnd on until 18:00`), read as it is; the command
  /// says what it makes of it.
  static var word: Self {
    Self(noun: "argument") { $0 }
  }

  /// A request id (`--id`): 1 to 64 characters from `A-Z a-z 0-9 . _ : -`, as the daemon takes
  /// it, so a blank or a control character never reaches the request line.
  static var token: Self {
    Self(noun: "id") { (text) throws(ValueRefusal) in
      guard RequestID.isValidToken(text) else { throw .expected(RequestID.tokenRule) }
      return text
    }
  }

  /// A `<key>=<value>` setting, passed on to the daemon, which knows the keys and their values.
  /// A blank or a control character would split the request line on the daemon's side, or end
  /// it and start another request, so it is refused here.
  static var setting: Self {
    Self(noun: "setting") { (text) throws(ValueRefusal) in
      guard text.contains("=") else { throw .message("Expected <key>=<value>, got '\(text)'") }
      if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
        throw .message(
          "Invalid argument '\(text.debugDescription.dropFirst().dropLast())'; "
            + "arguments hold no spaces or control characters")
      }
      return text
    }
  }
}

extension ValueKind where Value == CommandSpec {
  /// The name of a `badgectl` command, with a "Did you mean" hint when it is close to one.
  static var command: Self {
    Self(noun: "command") { (text) throws(ValueRefusal) in
      guard let spec = CommandSpec.named(text) else { throw .message(CommandSpec.unknownCommand(text)) }
      return spec
    }
  }
}
