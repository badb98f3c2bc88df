/// `[bridge]`: the LauncherEntry bridge between apps on the session bus and channels.
public struct BridgeConfig: Equatable, Sendable {
  /// `enabled`: whether badged listens to LauncherEntry signals and exports channels at all.
  public var enabled = true
  /// `clear_on_exit`: whether an app's channels go to 0 when it leaves the bus (else they keep
  /// the last count until cleared or updated).
  public var clearOnExit = false
  /// `ignore`: globs over desktop ids (`org.telegram.*`) of apps whose signals are dropped,
  /// kept as patterns over the channel names the apps would get (`app:org.telegram.*`).
  public var ignore: [ChannelPattern] = []

  public init() {}

  /// The keys `[bridge]` accepts.
  public enum Key: String, CaseIterable, Sendable {
    case enabled
    case clearOnExit = "clear_on_exit"
    case ignore
  }

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

  public init() {}

  /// The keys `[notifications]` accepts.
  public enum Key: String, CaseIterable, Sendable {
    case count
  }
}

extension DaemonConfig {
  /// The section names besides `[channel …]`, as messages list them.
  static let sectionNames = "[daemon], [limits], [bridge], [notifications], [mqtt] or [channel NAME]"

  /// Applies one entry of `[bridge]` or `[notifications]`; `false` when `section` is neither.
  ///
  /// - Throws: the reason, phrased to follow `file:line: `.
  static func parseBusEntry(_ entry: ConfigEntry, into config: inout DaemonConfig) throws(SettingKey.InvalidValue) -> Bool {
    func invalid(_ reason: String) -> SettingKey.InvalidValue {
      SettingKey.InvalidValue(reason: "Invalid value '\(entry.value)' for \(entry.key): \(reason)")
    }
    func boolean() throws(SettingKey.InvalidValue) -> Bool {
      do throws(SettingKey.InvalidValue) { return try SettingKey.boolean(entry.value) } catch { throw invalid(error.reason) }
    }
    switch entry.section {
    case "bridge":
      guard let key = BridgeConfig.Key(rawValue: entry.key) else {
        throw unknownKey(entry, BridgeConfig.Key.allCases.map(\.rawValue))
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
      }
    case "notifications":
      guard NotificationsConfig.Key(rawValue: entry.key) != nil else {
        throw unknownKey(entry, NotificationsConfig.Key.allCases.map(\.rawValue))
      }
      config.notifications.count = try boolean()
    default:
      return false
    }
    return true
  }

  static func unknownKey(_ entry: ConfigEntry, _ keys: [String]) -> SettingKey.InvalidValue {
    SettingKey.InvalidValue(reason: "Unknown key '\(entry.key)' in [\(entry.section)]; expected one of \(keys.joined(separator: ", "))")
  }
}

/// The channel prefixes of the bus bridges (`app:`, `notify:`), in the core so that config
/// globs and the bridges agree.
public enum AppChannelPrefix {
  public static let launcher = "app:"
  public static let notification = "notify:"
}
