import BadgeCore
import BadgeLog
import Glibc

extension Logger {
  /// Where log lines go (`automatic()`):
  /// - to journald, as entries with structured fields (`PRIORITY=`, `SYSLOG_IDENTIFIER=badged`,
  ///   `CHANNEL=`, `CLIENT_PID=`), when standard error is connected to the journal
  ///   (`JOURNAL_STREAM` names fd 2, as systemd sets it for a service); nothing goes to
  ///   standard error then, so no line is logged twice;
  /// - otherwise to standard error, one line each; when standard error is not a terminal (a
  ///   pipe, a file, a service manager without journald), each line starts with its syslog
  ///   priority (`<3>`), which journald and other log collectors read.
  ///
  /// Either way a line never waits for its reader: `LogOutput` drops and counts what cannot
  /// go out at once.
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

  /// The daemon's log, written to `destination`.
  public init(level: Level = .info, destination: Destination = .automatic(), identifier: String = "badged") {
    self.init(level: level, identifier: identifier, sink: LogOutput(destination))
  }

  /// Where lines go, when they go to one of the operating system's destinations.
  public var destination: Destination? { output?.destination }

  /// The output lines go through, when they go to one of the operating system's destinations.
  public var output: LogOutput? { sink as? LogOutput }
}
