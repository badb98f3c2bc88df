import Glibc

/// The daemon's log: one line per notable event, phrased the systemd way ("Failed to …: …",
/// "…, ignoring.").
///
/// Lines go to standard error in one `write(2)` each. When standard error is not a terminal
/// (a service, a pipe), each line starts with its syslog priority (`<3>`), which journald reads
/// from a service's standard error.
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

  /// Messages less severe than this are dropped.
  public var level: Level
  /// Whether lines carry `<N>` priority prefixes.
  public var prefixesPriority: Bool

  public init(level: Level = .info, prefixesPriority: Bool = isatty(2) != 1) {
    self.level = level
    self.prefixesPriority = prefixesPriority
  }

  public func log(_ level: Level, _ message: @autoclosure () -> String) {
    guard level <= self.level else { return }
    var line = prefixesPriority ? "<\(level.rawValue)>" : ""
    line += message()
    line += "\n"
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
  }

  public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
  public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
  public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
  public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
  public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
