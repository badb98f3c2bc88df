/// Which limit a channel's room counts against. The bus bridges' channels (`app:…`,
/// `notify:…`) have limits of their own, apart from `[limits] max_channels`, so that no app on
/// the session bus can make the daemon refuse a client's channel, and no client can fill the
/// bridges' room; channels mirrored from other machines have theirs too, so that nothing
/// published on the MQTT broker can take a local client's room either.
///
/// A channel's pool is read from the channel, not from who made it: a mirrored channel's from
/// its owner (saved with it), any other's from its name. Both say it after a restart too, when
/// channels come back from disk without their maker, and a client that writes
/// `app:org.telegram.desktop` writes the bridge's channel.
public enum ChannelPool: Int, CaseIterable, Sendable {
  /// Every channel outside the bridges' namespaces: `[limits] max_channels`.
  case clients
  /// `app:…`, the LauncherEntry bridge's: `[bridge] max_channels`.
  case launcherEntry
  /// `notify:…`, the notification count's: `[notifications] max_channels`.
  case notifications
  /// Channels another machine owns, mirrored here by the MQTT bridge: `[limits] max_mirrored`.
  case mirrors

  /// The key that sets the pool's limit, with its section, for messages.
  public var limitKey: String {
    switch self {
    case .clients: return "[limits] max_channels"
    case .launcherEntry: return "[bridge] max_channels"
    case .notifications: return "[notifications] max_channels"
    case .mirrors: return "[limits] max_mirrored"
    }
  }

  /// The pool's limit when the config sets none: far above what clients use, above the apps a
  /// desktop has installed that show a count or send notifications, and above the channels a
  /// user's machines share with each other.
  public var defaultLimit: Int { self == .clients ? 10_000 : 1000 }

  /// The pool of `channel`: the mirrors' when it is mirrored, else its name's.
  @inline(__always)
  public init(of channel: Channel) {
    self = channel.isMirrored ? .mirrors : ChannelPool(of: channel.name)
  }

  /// The pool of a channel called `name` that is not mirrored.
  public init(of name: ChannelName) {
    self = name.withBytes { bytes in
      if bytes.starts(with: AppChannelPrefix.launcher.utf8) { return .launcherEntry }
      if bytes.starts(with: AppChannelPrefix.notification.utf8) { return .notifications }
      return .clients
    }
  }

  /// How many channels each pool keeps.
  public struct Counts: Equatable, Sendable {
    private var counts = [Int](repeating: 0, count: ChannelPool.allCases.count)

    public init() {}

    public subscript(pool: ChannelPool) -> Int {
      get { counts[pool.rawValue] }
      set { counts[pool.rawValue] = newValue }
    }
  }
}

/// A limit on the channels of one pool, with the key that sets it, for messages.
public struct ChannelLimit: Equatable, Sendable, CustomStringConvertible {
  /// How many channels the pool keeps at most.
  public let value: Int
  /// The config key, with its section: `[limits] max_channels`.
  public let key: String

  public init(_ value: Int, key: String) {
    self.value = value
    self.key = key
  }

  public var description: String { "\(key) = \(value)" }
}
