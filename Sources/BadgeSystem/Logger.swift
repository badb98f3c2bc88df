import Glibc

/// The daemon's log: one line per notable event, phrased the systemd way ("Failed to …: …",
/// "…, ignoring.").
///
/// Where lines go (`Destination.automatic`):
/// - to journald, as entries with structured fields (`PRIORITY=`, `SYSLOG_IDENTIFIER=badged`,
///   `CHANNEL=`, `CLIENT_PID=`), when standard error is connected to the journal
///   (`JOURNAL_STREAM` names fd 2, as systemd sets it for a service); nothing goes to standard
///   error then, so no line is logged twice;
/// - otherwise to standard error, in one `write(2)` each; when standard error is not a terminal
///   (a pipe, a file, a service manager without journald), each line starts with its syslog
///   priority (`<3>`), which journald and other log collectors read.
public struct Logger: Sendable {
  /// Syslog priorities, most severe first.
  public enum Level: Int, Comparable, Sendable, CaseIterable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The names `--log-level` accepts, as systemd spells them.
    public var name: String {
      switch self {
      case .emergency: return "emerg"
      case .alert: return "alert"
      case .critical: return "crit"
      case .error: return "err"
      case .warning: return "warning"
      case .notice: return "notice"
      case .info: return "info"
      case .debug: return "debug"
      }
    }

    public init?(name: String) {
      guard let level = Level.allCases.first(where: { $0.name == name || String($0.rawValue) == name }) else {
        return nil
      }
      self = level
    }
  }

  /// Where log lines go.
  public enum Destination: Equatable, Sendable {
    /// Standard error, with `<N>` priority prefixes or without.
    case standardError(priorityPrefix: Bool)
    /// journald's native protocol, with structured fields.
    case journal

    /// The journal when standard error is connected to it, else standard error with priority
    /// prefixes unless it is a terminal.
    public static func automatic() -> Destination {
      if Journald.isStandardErrorConnected { return .journal }
      return .standardError(priorityPrefix: isatty(2) != 1)
    }
  }

  /// A structured journal field that goes with a message (dropped on standard error, where
  /// the message text says the same).
  public struct Field: Sendable, Equatable {
    /// Upper-case journal field name, e.g. `CHANNEL`.
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }

    /// `CHANNEL=`: the channel the message is about.
    public static func channel(_ name: some CustomStringConvertible) -> Field { Field("CHANNEL", name.description) }
    /// `CLIENT_PID=`: the process id of the client the message is about.
    public static func clientPID(_ pid: Int32) -> Field { Field("CLIENT_PID", String(pid)) }
  }

  /// Messages less severe than this are dropped.
  public var level: Level
  public var destination: Destination
  /// `SYSLOG_IDENTIFIER=` in the journal.
  public var identifier: String

  public init(level: Level = .info, destination: Destination = .automatic(), identifier: String = "badged") {
    self.level = level
    self.destination = destination
    self.identifier = identifier
  }

  public func log(_ level: Level, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    guard level <= self.level else { return }
    switch destination {
    case .journal:
      var entry = ["MESSAGE=" + message(), "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=" + identifier]
      for field in fields() { entry.append(field.name + "=" + field.value) }
      // The journal refused it (journald gone): standard error is still the journal stream.
      if !Journald.send(entry) { writeLine(level, message(), priorityPrefix: true) }
    case .standardError(let priorityPrefix):
      writeLine(level, message(), priorityPrefix: priorityPrefix)
    }
  }

  private func writeLine(_ level: Level, _ message: String, priorityPrefix: Bool) {
    var line = priorityPrefix ? "<\(level.rawValue)>" : ""
    // One event, one line: a message quoting client input must not forge further lines.
    line += message.contains(where: \.isNewline) ? String(message.map { $0.isNewline ? " " : $0 }) : message
    line += "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  public func error(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    log(.error, message(), fields())
  }
  public func warning(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    log(.warning, message(), fields())
  }
  public func notice(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    log(.notice, message(), fields())
  }
  public func info(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    log(.info, message(), fields())
  }
  public func debug(_ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    log(.debug, message(), fields())
  }
}
