/// An error reply: `ERR <code> <message>`.
///
/// Codes are stable words a program can match; messages are for people and may change.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Code: String, Sendable, CaseIterable {
    /// The first word is not a command.
    case unknownCommand = "unknown-command"
    /// An argument is missing or one too many was given.
    case badArguments = "bad-arguments"
    /// A channel name or pattern breaks the naming rules.
    case badName = "bad-name"
    /// A number is not a whole number in range for its place.
    case badNumber = "bad-number"
    /// The change would take a count past 2147483647.
    case outOfRange = "out-of-range"
    /// A `CONFIGURE` setting is unknown or its value is refused.
    case badSetting = "bad-setting"
    /// The line went over the length limit; the rest of it was discarded.
    case lineTooLong = "line-too-long"
    /// The line is not valid UTF-8.
    case badUTF8 = "bad-utf8"
    /// The daemon could not do what was asked (e.g. a reload with a broken config file).
    case failed = "failed"
    /// `[limits] max_clients` are connected already; the connection is closed.
    case busy = "busy"
    /// The change would make a channel past `[limits] max_channels`.
    case full = "full"
    /// The `WATCH` would take the connection past `[limits] max_watch_patterns`.
    case tooManyPatterns = "too-many-patterns"
    /// A started line was not finished within `[limits] line_timeout_ms`; the connection is
    /// closed.
    case timeout = "timeout"
    /// The peer runs as another user than the daemon; the connection is closed.
    case denied = "denied"
    /// The request's id was saved with another request; nothing changed.
    case idReused = "id-reused"
    /// A request only the bridge's connection (`BRIDGE host=<host>`) may send.
    case notBridge = "not-bridge"
    /// `BRIDGE host=<host>` while another connection is the bridge.
    case bridgeTaken = "bridge-taken"
    /// `MIRROR` of a channel that is local here (it has a count or a setting of this machine's).
    case localChannel = "local-channel"
    /// `CONFIGURE` of a channel mirrored from another machine: it is configured on its owner.
    case mirrored = "mirrored"
    /// `SOURCES attach` while another connection is the sources program.
    case sourcesTaken = "sources-taken"
    /// A request only the sources connection (`SOURCES attach`) may send.
    case notSources = "not-sources"
    /// `SOURCE … claim` of a channel another source counts.
    case claimed = "claimed"
    /// `INCR`, `DECR` or `SET` of a channel a source counts, but by its source's report.
    case sourced = "sourced"
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { "\(code.rawValue) \(message)" }
}
