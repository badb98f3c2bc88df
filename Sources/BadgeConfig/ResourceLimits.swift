import BadgeCore

/// The bounds on everything a client controls: the `[limits]` section of `badged.conf`.
///
/// Every resource a local program can make the daemon spend (connections, channels, watch
/// patterns, buffered replies, time a half-sent line holds a connection, a stuck reader's
/// backlog) has a limit here, so that a buggy or hostile client cannot grow the daemon's memory
/// or CPU without bound. Each key, its range and default live in `Key`, the one table the
/// parser, the docs test and the messages read.
public struct ResourceLimits: Equatable, Sendable {
  /// Clients connected at once; one more gets `ERR busy` and is closed.
  public var maxClients: Int
  /// Channels kept at once (with a count or a setting); a new one more gets `ERR full`.
  public var maxChannels: Int
  /// Channels mirrored from other machines kept at once, apart from `maxChannels`
  /// (`ChannelPool.mirrors`); a new one more is refused to the bridge with `ERR full`.
  public var maxMirrored = ChannelPool.mirrors.defaultLimit
  /// Patterns one connection may `WATCH`; more get `ERR too-many-patterns`.
  public var maxWatchPatterns: Int
  /// Bytes of replies a client may leave unread before the daemon stops reading its requests
  /// (back-pressure on pipelining).
  public var maxUnsentBytes: Int
  /// How long a connection may hold a started, unfinished line; then `ERR timeout` and close.
  public var lineTimeoutMs: Int
  /// How long a client's output may stay unsent without any of it being read; then the
  /// connection is closed and the reason logged.
  public var sendTimeoutMs: Int

  public static let defaults = ResourceLimits(
    maxClients: 1024, maxChannels: ChannelPool.clients.defaultLimit, maxWatchPatterns: 256, maxUnsentBytes: 1 << 20,
    lineTimeoutMs: 10_000, sendTimeoutMs: 30_000)

  public init(
    maxClients: Int, maxChannels: Int, maxWatchPatterns: Int, maxUnsentBytes: Int,
    lineTimeoutMs: Int, sendTimeoutMs: Int
  ) {
    self.maxClients = maxClients
    self.maxChannels = maxChannels
    self.maxWatchPatterns = maxWatchPatterns
    self.maxUnsentBytes = maxUnsentBytes
    self.lineTimeoutMs = lineTimeoutMs
    self.sendTimeoutMs = sendTimeoutMs
  }

  /// The keys of `[limits]`, with the values each accepts.
  public enum Key: String, CaseIterable, Sendable {
    case maxClients = "max_clients"
    case maxChannels = "max_channels"
    case maxMirrored = "max_mirrored"
    case maxWatchPatterns = "max_watch_patterns"
    case maxUnsentBytes = "max_unsent_bytes"
    case lineTimeoutMs = "line_timeout_ms"
    case sendTimeoutMs = "send_timeout_ms"

    /// The accepted values. A limit cannot be switched off: each has a top.
    public var range: ClosedRange<Int> {
      switch self {
      case .maxClients: return 1...1_000_000
      case .maxChannels: return 1...10_000_000
      case .maxMirrored: return 1...1_000_000
      case .maxWatchPatterns: return 1...100_000
      case .maxUnsentBytes: return 65_536...(1 << 30)
      case .lineTimeoutMs, .sendTimeoutMs: return 100...3_600_000
      }
    }

    var path: WritableKeyPath<ResourceLimits, Int> {
      switch self {
      case .maxClients: return \.maxClients
      case .maxChannels: return \.maxChannels
      case .maxMirrored: return \.maxMirrored
      case .maxWatchPatterns: return \.maxWatchPatterns
      case .maxUnsentBytes: return \.maxUnsentBytes
      case .lineTimeoutMs: return \.lineTimeoutMs
      case .sendTimeoutMs: return \.sendTimeoutMs
      }
    }
  }

  /// The value of `key`.
  public subscript(key: Key) -> Int {
    get { self[keyPath: key.path] }
    set { self[keyPath: key.path] = newValue }
  }

  /// Sets `key` from the config file's text.
  ///
  /// - Throws: `SettingKey.InvalidValue` when the text is not a number in the key's range.
  public mutating func parse(_ key: Key, _ text: String) throws(SettingKey.InvalidValue) {
    self[key] = try SettingKey.integer(text, in: key.range)
  }
}
