/// What a feedback hook runs for.
public enum HookEvent: String, Sendable, CaseIterable {
  /// The count rose.
  case increase
  /// The count fell (to zero too).
  case decrease
  /// The count reached 0.
  case zero
  /// The pulse window ended by time.
  case pulseEnd = "pulse_end"

  /// The config key that sets the hook: `on_increase`, …
  public var key: String { "on_" + rawValue }

  public init?(key: String) {
    guard key.hasPrefix("on_"), let event = HookEvent(rawValue: String(key.dropFirst(3))) else { return nil }
    self = event
  }
}

/// A hook's command line, split into words once when the config is read.
///
/// The rules, a small part of the shell's: words are separated by unquoted spaces and tabs;
/// `'…'` keeps everything inside as it is; `"…"` too, except that `\"` and `\\` stand for `"`
/// and `\`; outside quotes `\` keeps the next character as it is. Nothing else is special: no
/// variables, globs, `~`, pipes or redirections; a command that wants them names a shell
/// (`sh -c '…'`). The first word is the program, looked up in `PATH` unless it has a `/`.
/// An empty line means no hook (so a section can turn off a hook `[daemon]` sets).
public struct HookCommand: Equatable, Sendable {
  /// The line as the config file wrote it.
  public let line: String
  /// The program and its arguments; empty for no hook.
  public let words: [String]

  /// Why a line cannot be split.
  public struct SplitError: Error, Equatable, Sendable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
  }

  public init(_ line: String) throws(SplitError) {
    self.line = line
    self.words = try HookCommand.split(line)
  }

  /// The words of `line` under the rules above.
  public static func split(_ line: String) throws(SplitError) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        if quote == "\"" && character != "\"" && character != "\\" { word.append("\\") }
        word.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case (nil, " "), (nil, "\t"):
        if inWord { words.append(word) }
        word = ""
        inWord = false
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, "\\"), ("\"", "\\"):
        escaped = true
        inWord = true
      case ("'", "'"), ("\"", "\""):
        quote = nil
      default:
        word.append(character)
        inWord = true
      }
    }
    if escaped { throw SplitError(reason: "it ends in a lone backslash") }
    if let quote { throw SplitError(reason: "a \(quote) quote is not closed") }
    if inWord { words.append(word) }
    return words
  }
}

/// Hooks for some events: a `[daemon]` or `[channel …]` section's, or the ones in force for
/// a channel. An event without an entry has no hook at this level.
public struct HookSet: Equatable, Sendable {
  public var commands: [HookEvent: HookCommand] = [:]

  public init(_ commands: [HookEvent: HookCommand] = [:]) { self.commands = commands }

  public subscript(event: HookEvent) -> HookCommand? {
    get { commands[event] }
    set { commands[event] = newValue }
  }

  /// This set with every entry of `other` put over it.
  public func merged(with other: HookSet) -> HookSet {
    HookSet(commands.merging(other.commands) { $1 })
  }

  /// Whether any event runs a command (an empty one runs nothing).
  public var runsAnything: Bool {
    commands.values.contains { !$0.words.isEmpty }
  }

  /// The command to run for `event`, if one is set and not empty.
  public func command(for event: HookEvent) -> HookCommand? {
    guard let command = commands[event], !command.words.isEmpty else { return nil }
    return command
  }
}

extension HookEvent {
  /// The events a count change from `previous` to `count` is: `increase` for a rise;
  /// `decrease` for a fall, and `zero` too when it reached 0.
  public static func events(from previous: Int, to count: Int) -> [HookEvent] {
    if count > previous { return [.increase] }
    if count < previous { return count == 0 ? [.decrease, .zero] : [.decrease] }
    return []
  }
}
