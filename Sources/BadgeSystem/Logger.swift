import BadgeCore
import Glibc

extension Logger {
  /// Where log lines go (`automatic()`):
  /// - to journald, as entries with structured fields (`PRIORITY=`, `SYSLOG_IDENTIFIER=badged`,
  ///   `CHANNEL=`, `CLIENT_PID=`), when standard error is connected to the journal
  ///   (`JOURNAL_STREAM` names fd 2, as systemd sets it for a service); nothing goes to
  ///   standard error then, so no line is logged twice;
  /// - otherwise to standard error, in one `write(2)` each; when standard error is not a
  ///   terminal (a pipe, a file, a service manager without journald), each line starts with its
  ///   syslog priority (`<3>`), which journald and other log collectors read.
  public enum Destination: Equatable, Sendable, LogSink {
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

    public func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String) {
      switch self {
      case .journal:
        var entry = ["MESSAGE=" + message, "PRIORITY=\(level.rawValue)", "SYSLOG_IDENTIFIER=" + identifier]
        for field in fields { entry.append(field.name + "=" + field.value) }
        // The journal refused it (journald gone): standard error is still the journal stream.
        if !Journald.send(entry) { Destination.writeLine(level, message, priorityPrefix: true) }
      case .standardError(let priorityPrefix):
        Destination.writeLine(level, message, priorityPrefix: priorityPrefix)
      }
    }

    private static func writeLine(_ level: Logger.Level, _ message: String, priorityPrefix: Bool) {
      var line = priorityPrefix ? "<\(level.rawValue)>" : ""
      // One event, one line: a message quoting client input must not forge further lines.
      line += message.contains(where: \.isNewline) ? String(message.map { $0.isNewline ? " " : $0 }) : message
      line += "\n"
      var bytes = Array(line.utf8)
      _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
  }

  /// The daemon's log, written to `destination`.
  public init(level: Level = .info, destination: Destination = .automatic(), identifier: String = "badged") {
    self.init(level: level, identifier: identifier, sink: destination)
  }

  /// Where lines go, when they go to one of the operating system's destinations.
  public var destination: Destination? { sink as? Destination }
}
