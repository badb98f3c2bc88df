import BadgeLog

/// The command lines of the programs with a handful of long options (`badged`, `badged-mqtt`):
/// `--name value` or `--name=value`, flags without a value, and `-h`/`--help`/`--version`,
/// which end the reading wherever they stand.
public enum ProgramOptions {
  /// A command line that cannot be run; exit status 64.
  public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
  }

  /// One option as written: its name and, for an option that takes one, its value.
  public struct Option: Equatable {
    public var name: String
    public var value: String?

    public init(name: String, value: String? = nil) {
      self.name = name
      self.value = value
    }
  }

  /// The words that stop the reading: what follows them is not looked at.
  public static let stops: Set<String> = ["-h", "--help", "--version"]

  /// Hands each option of `arguments` to `each`, in order, up to and including a stop; so the
  /// first mistake of the line, in the reading's order or in `each`'s, is the one reported.
  ///
  /// - Parameters:
  ///   - valued: the options that take a value (never empty).
  ///   - flags: the options that take none.
  /// - Throws: `UsageError` for an unknown option, a bare argument, or a missing or empty value,
  ///   and whatever `each` throws.
  public static func read(
    _ arguments: [String], valued: Set<String>, flags: Set<String> = [], each: (Option) throws(UsageError) -> Void
  ) throws(UsageError) {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
        name = String(argument[..<eq])
        inlineValue = String(argument[argument.index(after: eq)...])
      }
      if stops.contains(name) {
        try each(Option(name: name))
        return
      } else if flags.contains(name) {
        try each(Option(name: name))
      } else if valued.contains(name) {
        guard let value = inlineValue ?? rest.first.flatMap({ $0.hasPrefix("--") ? nil : $0 }) else {
          throw UsageError(message: "Missing value for '\(name)'")
        }
        if inlineValue == nil { rest = rest.dropFirst() }
        guard !value.isEmpty else { throw UsageError(message: "Empty value for '\(name)'") }
        try each(Option(name: name, value: value))
      } else if argument.hasPrefix("-") {
        throw UsageError(message: "Unknown option '\(argument)'")
      } else {
        throw UsageError(message: "Unexpected argument '\(argument)'")
      }
    }
  }

  /// A `--log-level` value: a level's name as systemd spells it, or its number.
  public static func logLevel(_ text: String) throws(UsageError) -> Logger.Level {
    guard let level = Logger.Level(name: text) else {
      throw UsageError(
        message:
          "Invalid log level '\(text)'; expected one of \(Logger.Level.allCases.map(\.name).joined(separator: ", "))")
    }
    return level
  }
}
