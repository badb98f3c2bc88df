import BadgeCore

/// `[bridge]`: the LauncherEntry link between apps on the session bus and channels. The section
/// keeps its name in badged.conf; in the code "bridge" is the MQTT link, so the type says bus.
public struct BusConfig: Equatable, Sendable {
  /// `enabled`: whether badged listens to LauncherEntry signals and exports channels at all.
  public var enabled = true
  /// `clear_on_exit`: whether an app's channels go to 0 when it leaves the bus (else they keep
  /// the last count until cleared or updated).
  public var clearOnExit = false
  /// `ignore`: globs over desktop ids (`org.telegram.*`) of apps whose signals are dropped,
  /// kept as patterns over the channel names the apps would get (`app:org.telegram.*`).
  public var ignore: [ChannelPattern] = []
  /// `max_apps`: how many apps (a bus connection and a desktop id it sends for) the bridge
  /// remembers at once; an update from one more is dropped. A desktop runs a few dozen apps
  /// that show a count, each from one connection; the default leaves room for ten times that,
  /// and what each costs (the merged properties, the sender's name) stays under a megabyte.
  public var maxApps = 256
  /// `max_channels`: how many `app:` channels are kept at once, counted apart from
  /// `[limits] max_channels` (`ChannelPool`), so that apps cannot take clients' room. An app's
  /// channel stays after it leaves, with its last count, until cleared; the default is far
  /// above the apps a desktop has installed that show a count.
  public var maxChannels = ChannelPool.launcherEntry.defaultLimit

  public init() {}

  /// The keys `[bridge]` accepts.
  public enum Key: String, CaseIterable, Sendable {
    case enabled
    case clearOnExit = "clear_on_exit"
    case ignore
    case maxApps = "max_apps"
    case maxChannels = "max_channels"
  }

  /// The accepted values of `max_apps`.
  public static let maxAppsRange = 1...100_000
  /// The accepted values of `max_channels` here and in `[notifications]`: those of
  /// `[limits] max_channels`.
  public static let maxChannelsRange = ResourceLimits.Key.maxChannels.range

  /// Whether the app whose channel would be `channel` is ignored.
  public func ignores(_ channel: ChannelName) -> Bool {
    ignore.contains { $0.matches(channel) }
  }
}

/// `[notifications]`: per-app counts of desktop notifications, seen as a bus monitor.
public struct NotificationsConfig: Equatable, Sendable {
  /// `count`: whether `Notify` calls count into `notify:<app>` channels. Off unless asked for:
  /// it makes badged a monitor of the session bus.
  public var count = false
  /// `max_channels`: how many `notify:` channels are kept at once, counted apart from
  /// `[limits] max_channels` and `[bridge] max_channels` (`ChannelPool`), so that an app that
  /// sends notifications under ever new names cannot take anyone else's room.
  public var maxChannels = ChannelPool.notifications.defaultLimit

  public init() {}

  /// The keys `[notifications]` accepts.
  public enum Key: String, CaseIterable, Sendable {
    case count
    case maxChannels = "max_channels"
  }
}

extension DaemonConfig {
  /// The section names besides `[channel …]`, as messages list them.
  static let sectionNames = "[daemon], [limits], [bridge], [notifications], [mqtt], [tray], [web] or [channel NAME]"

  /// Applies one entry of `[bridge]` or `[notifications]`; `false` when `section` is neither.
  ///
  /// - Throws: the reason, phrased to follow `file:line: `.
  static func parseBusEntry(_ entry: ConfigEntry, into config: inout DaemonConfig) throws(SettingKey.InvalidValue)
    -> Bool
  {
    func invalid(_ reason: String) -> SettingKey.InvalidValue {
      SettingKey.InvalidValue(reason: "Invalid value '\(entry.value)' for \(entry.key): \(reason)")
    }
    /// The entry's value as `parse` reads it, a refusal phrased for the entry.
    func value<T>(_ parse: (String) throws(SettingKey.InvalidValue) -> T) throws(SettingKey.InvalidValue) -> T {
      do throws(SettingKey.InvalidValue) { return try parse(entry.value) } catch { throw invalid(error.reason) }
    }
    func boolean() throws(SettingKey.InvalidValue) -> Bool { try value(SettingKey.boolean) }
    func number(in range: ClosedRange<Int>) throws(SettingKey.InvalidValue) -> Int {
      try value { (text) throws(SettingKey.InvalidValue) in try SettingKey.integer(text, in: range) }
    }
    switch entry.section {
    case "bridge":
      guard let key = BusConfig.Key(rawValue: entry.key) else {
        throw unknownKey(entry, BusConfig.Key.allCases.map(\.rawValue))
      }
      switch key {
      case .enabled: config.bridge.enabled = try boolean()
      case .clearOnExit: config.bridge.clearOnExit = try boolean()
      case .ignore:
        let globs = entry.value.split { $0 == " " || $0 == "," || $0 == "\t" }
        var patterns: [ChannelPattern] = []
        for glob in globs {
          guard let pattern = ChannelPattern(AppChannelPrefix.launcher + glob) else {
            throw invalid("'\(glob)' is not a glob over desktop ids (A-Z a-z 0-9 . _ - and * ?)")
          }
          patterns.append(pattern)
        }
        config.bridge.ignore = patterns
      case .maxApps: config.bridge.maxApps = try number(in: BusConfig.maxAppsRange)
      case .maxChannels: config.bridge.maxChannels = try number(in: BusConfig.maxChannelsRange)
      }
    case "notifications":
      guard let key = NotificationsConfig.Key(rawValue: entry.key) else {
        throw unknownKey(entry, NotificationsConfig.Key.allCases.map(\.rawValue))
      }
      switch key {
      case .count: config.notifications.count = try boolean()
      case .maxChannels: config.notifications.maxChannels = try number(in: BusConfig.maxChannelsRange)
      }
    default:
      return false
    }
    return true
  }

  static func unknownKey(_ entry: ConfigEntry, _ keys: [String]) -> SettingKey.InvalidValue {
    SettingKey.InvalidValue(
      reason: "Unknown key '\(entry.key)' in [\(entry.section)]; expected one of \(keys.joined(separator: ", "))")
  }
}
