/// The daemon's log: one line per notable event, phrased the systemd way ("Failed to …: …",
/// "…, ignoring.").
///
/// The log's rules live here, below every module that logs: a message less severe than `level`
/// is dropped before it is even built, and the others go to `sink`. Where lines go is the
/// operating system's business (BadgeSystem's `Logger.Destination`: journald or standard
/// error), so the server's pure parts log without touching a file, and tests hand them a sink
/// that keeps the lines.
public struct Logger: Sendable {
  /// Syslog priorities, most severe first.
  public enum Level: Int, Comparable, Sendable, CaseIterable {
    case emergency = 0
    case alert, critical, error, warning, notice, info, debug

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
  /// `SYSLOG_IDENTIFIER=` in the journal.
  public var identifier: String
  /// Where the lines that pass `level` go.
  public var sink: any LogSink

  public init(level: Level, identifier: String = "badged", sink: any LogSink) {
    self.level = level
    self.identifier = identifier
    self.sink = sink
  }

  public func log(_ level: Level, _ message: @autoclosure () -> String, _ fields: @autoclosure () -> [Field] = []) {
    guard level <= self.level else { return }
    sink.write(level, message(), fields(), identifier: identifier)
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

/// Where a `Logger` writes the lines that pass its level.
public protocol LogSink: Sendable {
  /// Writes one message, with its journal fields, as the program `identifier`.
  func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String)
}
