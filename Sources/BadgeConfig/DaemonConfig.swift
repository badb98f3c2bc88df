import BadgeCore
import BadgeHooks

/// The daemon's configuration: what `badged.conf` says, validated.
///
/// Parsing is pure: it takes the file's entries (read by the system module with libinih) and
/// either returns a whole config or fails on the first bad entry, so that a reload swaps in a
/// complete new config or nothing.
public struct DaemonConfig: Equatable, Sendable {
  /// `[daemon]` `pulse_ms` and `max_label`: the settings of a channel no section names.
  public var defaults: ChannelSettings = .defaults
  /// `[channel NAME]` and `[channel GLOB]` sections in file order.
  public var sections: [ChannelSection] = []
  /// `[daemon]` `sync`: when changes reach the disk.
  public var sync: SyncMode = .always
  /// `[daemon]` `dnd_badges`: how silenced badges show while do-not-disturb is on.
  public var dndBadges: DNDBadges = .hide
  /// `[daemon]` `on_increase`, …: the hooks of every channel no section overrides.
  public var hooks = HookSet()
  /// `[daemon]` `hook_interval_ms`: at most one hook start per channel in this time.
  public var hookIntervalMs = 1000
  /// `[daemon]` `hook_timeout_ms`: a hook still running after this is killed.
  public var hookTimeoutMs = 10_000
  /// `[daemon]` `hooks_when_muted`: whether muted channels run their hooks.
  public var hooksWhenMuted = false
  /// `[daemon]` `hooks_max_running`: the most hook runs under way at once, all channels
  /// together; runs past it wait their turn.
  public var hooksMaxRunning = DaemonConfig.defaultHooksMaxRunning
  /// `[limits]`: the bounds on what clients can make the daemon hold.
  public var limits: ResourceLimits = .defaults
  /// `[bridge]`: the LauncherEntry bridge.
  public var bridge = BusConfig()
  /// `[notifications]`: notification counts per app.
  public var notifications = NotificationsConfig()

  public init() {}

  /// What the store takes from the config (`Store.config`): the channels' settings, how
  /// silenced badges show, and each pool's limit on its channels.
  public var channels: ChannelConfig {
    var view = ChannelConfig()
    view.defaults = defaults
    view.sections = sections.map { ChannelConfig.Section(pattern: $0.pattern, override: $0.override) }
    view.dndBadges = dndBadges
    view.maxChannels = [
      .clients: limits.maxChannels, .launcherEntry: bridge.maxChannels, .notifications: notifications.maxChannels,
      .mirrors: limits.maxMirrored,
    ]
    return view
  }

  /// The settings the config gives `name`, and whether any section matched it: those of its
  /// channels' view (`ChannelConfig.settings(for:)`, what the store reads).
  public func settings(for name: ChannelName) -> (settings: ChannelSettings, matched: Bool) {
    channels.settings(for: name)
  }

  /// Whether any channel can run a hook: without, the daemon does not keep a turn's count
  /// changes for them.
  public var hasHooks: Bool {
    hooks.runsAnything || sections.contains { $0.hooks.runsAnything }
  }

  /// The hooks in force for `name`: `[daemon]`'s, then matching globs in file order, then the
  /// section naming it exactly.
  public func hooks(for name: ChannelName) -> HookSet {
    var hooks = self.hooks
    for section in sections where section.pattern.isGlob && section.pattern.matches(name) {
      hooks = hooks.merged(with: section.hooks)
    }
    for section in sections where !section.pattern.isGlob && section.pattern.matches(name) {
      hooks = hooks.merged(with: section.hooks)
    }
    return hooks
  }

  /// The channels exported to docks (`export = <desktop id>`), by channel.
  public var exports: [ChannelName: String] {
    var result: [ChannelName: String] = [:]
    for section in sections {
      if let name = section.pattern.exactName, let id = section.override.export { result[name] = id }
    }
    return result
  }
}

/// One `[channel …]` section.
public struct ChannelSection: Equatable, Sendable {
  public var pattern: ChannelPattern
  public var override: SettingsOverride
  /// The section's `on_…` hooks.
  public var hooks: HookSet
  /// `export`: the desktop id the channel's count is announced for on the session bus
  /// (LauncherEntry), without `.desktop`; only in a section that names one channel. It is the
  /// override's `export`, a setting like the others.
  public var export: String? {
    get { override.export }
    set { override.export = newValue }
  }
  /// The line of the section's first key, for messages.
  public var line: Int

  public init(
    pattern: ChannelPattern, override: SettingsOverride, hooks: HookSet = HookSet(), export: String? = nil,
    line: Int
  ) {
    self.pattern = pattern
    self.override = override
    self.hooks = hooks
    if let export { self.override.export = export }
    self.line = line
  }
}

/// One `key = value` line of the config file, with the section it is in.
public struct ConfigEntry: Equatable, Sendable {
  public var section: String
  public var key: String
  public var value: String
  public var line: Int

  public init(section: String, key: String, value: String, line: Int) {
    self.section = section
    self.key = key
    self.value = value
    self.line = line
  }
}

/// Why a config file was refused, with its place: rendered as `file:line: reason`.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var reason: String

  public init(file: String, line: Int, reason: String) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

extension DaemonConfig {
  /// The keys `[daemon]` accepts.
  public enum DaemonKey: String, CaseIterable, Sendable {
    case pulseMs = "pulse_ms"
    case maxLabel = "max_label"
    case sync
    case dndBadges = "dnd_badges"
    case hookIntervalMs = "hook_interval_ms"
    case hookTimeoutMs = "hook_timeout_ms"
    case hooksWhenMuted = "hooks_when_muted"
    case hooksMaxRunning = "hooks_max_running"
  }

  /// Every key `[daemon]` accepts, for messages: its own and the hooks'.
  static var daemonKeyNames: String {
    (DaemonKey.allCases.map(\.rawValue) + HookEvent.allCases.map(\.key)).joined(separator: ", ")
  }

  /// Every key a `[channel …]` section accepts, for messages: the settings and the hooks.
  static var channelKeyNames: String {
    (SettingKey.allCases.map(\.rawValue) + HookEvent.allCases.map(\.key))
      .joined(separator: ", ")
  }

  /// A hook's command line, or the reason it cannot be split, phrased like a value's.
  static func hook(_ value: String) throws(SettingKey.InvalidValue) -> HookCommand {
    do throws(HookCommand.SplitError) {
      return try HookCommand(value)
    } catch {
      throw SettingKey.InvalidValue(reason: error.reason)
    }
  }

  /// Builds a config from the entries of a file.
  ///
  /// - Throws: `ConfigError` naming the first entry that is not accepted.
  public static func parse(_ entries: [ConfigEntry], file: String) throws(ConfigError) -> DaemonConfig {
    var config = DaemonConfig()
    var sectionIndex: [String: Int] = [:]
    for entry in entries {
      func fail(_ reason: String) -> ConfigError {
        ConfigError(file: file, line: entry.line, reason: reason)
      }
      let words = entry.section.split(separator: " ", omittingEmptySubsequences: true)
      if entry.section == "daemon" {
        if let event = HookEvent(key: entry.key) {
          do throws(SettingKey.InvalidValue) {
            config.hooks[event] = try hook(entry.value)
          } catch {
            throw fail("Invalid value '\(entry.value)' for \(entry.key): \(error.reason)")
          }
          continue
        }
        guard let key = DaemonKey(rawValue: entry.key) else {
          throw fail("Unknown key '\(entry.key)' in [daemon]; expected one of \(daemonKeyNames)")
        }
        do throws(SettingKey.InvalidValue) {
          switch key {
          case .dndBadges: config.dndBadges = try SettingKey.word(entry.value)
          case .hookIntervalMs: config.hookIntervalMs = try SettingKey.integer(entry.value, in: Limits.hookIntervalMs)
          case .hookTimeoutMs: config.hookTimeoutMs = try SettingKey.integer(entry.value, in: Limits.hookTimeoutMs)
          case .hooksWhenMuted: config.hooksWhenMuted = try SettingKey.boolean(entry.value)
          case .hooksMaxRunning:
            config.hooksMaxRunning = try SettingKey.integer(entry.value, in: Limits.hooksMaxRunning)
          case .pulseMs: try SettingKey.pulseMs.parse(entry.value, into: &config.defaults)
          case .maxLabel: try SettingKey.maxLabel.parse(entry.value, into: &config.defaults)
          case .sync:
            guard let mode = SyncMode(rawValue: entry.value) else {
              throw SettingKey.InvalidValue(reason: "expected always, everysec or never")
            }
            config.sync = mode
          }
        } catch {
          throw fail("Invalid value '\(entry.value)' for \(entry.key): \(error.reason)")
        }
      } else if entry.section == "limits" {
        guard let key = ResourceLimits.Key(rawValue: entry.key) else {
          throw fail(
            "Unknown key '\(entry.key)' in [limits]; expected one of "
              + "\(ResourceLimits.Key.allCases.map(\.rawValue).joined(separator: ", "))"
          )
        }
        do throws(SettingKey.InvalidValue) {
          try config.limits.parse(key, entry.value)
        } catch {
          throw fail("Invalid value '\(entry.value)' for \(entry.key): \(error.reason)")
        }
      } else if words.count == 2, words[0] == "channel" {
        guard let pattern = ChannelPattern(words[1]) else {
          throw fail("Invalid channel name or pattern '\(words[1])' in [\(entry.section)]")
        }
        let event = HookEvent(key: entry.key)
        let key = SettingKey(rawValue: entry.key)
        guard event != nil || key != nil else {
          throw fail("Unknown key '\(entry.key)' in [\(entry.section)]; expected one of \(channelKeyNames)")
        }
        let index: Int
        if let existing = sectionIndex[String(words[1])] {
          index = existing
        } else {
          index = config.sections.count
          sectionIndex[String(words[1])] = index
          config.sections.append(ChannelSection(pattern: pattern, override: .empty, line: entry.line))
        }
        do throws(SettingKey.InvalidValue) {
          if let event {
            config.sections[index].hooks[event] = try hook(entry.value)
          } else if let key {
            guard !key.namesOneChannel || !pattern.isGlob else {
              throw SettingKey.InvalidValue(reason: "\(key) needs a section that names one channel, not a glob")
            }
            try key.parse(entry.value, into: &config.sections[index].override)
          }
        } catch {
          throw fail("Invalid value '\(entry.value)' for \(entry.key): \(error.reason)")
        }
      } else if try busEntry(entry, &config, fail) {
        continue
      } else if entry.section == mqttSection {
        // badged-mqtt's: it reads and checks the section; the daemon never talks to the network.
        continue
      } else if entry.section == traySection {
        // badged-tray's: it reads and checks the section; the daemon draws nothing.
        continue
      } else if entry.section == webSection {
        // badged-web's: it reads and checks the section; the daemon serves no HTTP.
        continue
      } else if isSourceSection(entry.section) {
        // badged-sources': it reads and checks them, so a mistake there never stops the daemon.
        continue
      } else if entry.section.isEmpty {
        throw fail("Key '\(entry.key)' is outside any section; put it under \(sectionNames)")
      } else {
        throw fail("Unknown section [\(entry.section)]; expected \(sectionNames)")
      }
    }
    return config
  }

  /// `parseBusEntry` with its failure put at the entry's line.
  private static func busEntry(
    _ entry: ConfigEntry, _ config: inout DaemonConfig, _ fail: (String) -> ConfigError
  ) throws(ConfigError) -> Bool {
    do throws(SettingKey.InvalidValue) {
      return try parseBusEntry(entry, into: &config)
    } catch {
      throw fail(error.reason)
    }
  }
}

extension DaemonConfig {
  /// The section of badged-mqtt, the bridge to an MQTT broker, which the daemon skips whatever
  /// its keys.
  public static let mqttSection = "mqtt"

  /// The section of badged-tray, the tray icons, which the daemon skips whatever its keys.
  public static let traySection = "tray"

  /// The section of badged-web, the web view, which the daemon skips whatever its keys.
  public static let webSection = "web"

  /// Whether `section` is one of badged-sources' (`[source.<name>]`), which the daemon skips
  /// whatever their keys.
  public static func isSourceSection(_ section: String) -> Bool {
    section.hasPrefix(sourceSectionPrefix) && section.count > sourceSectionPrefix.count
  }

  /// What begins the name of a section of badged-sources.
  public static let sourceSectionPrefix = "source."
}

extension ChannelSection {
  /// The key that exports a channel to docks.
  public static let exportKey = SettingKey.export.rawValue
}

/// The limits of the hook settings.
extension Limits {
  /// `hook_interval_ms`: up to an hour; 0 lets a hook start again as soon as it ended.
  public static let hookIntervalMs = 0...3_600_000
  /// `hook_timeout_ms`: from a millisecond to an hour.
  public static let hookTimeoutMs = 1...3_600_000
  /// `hooks_max_running`: at least one run, at most 1024 processes at once.
  public static let hooksMaxRunning = 1...1024
}

extension DaemonConfig {
  /// `hooks_max_running`'s default. A hook is a short command (a sound, a notification, a
  /// script) of a few megabytes; eight at once stay far under what a laptop's memory and cores
  /// handle, and are more feedback at once than anyone hears or reads. The bound is also what
  /// one turn of the loop may spend starting hooks: each start is a `posix_spawn` that returns
  /// once the child runs its program, and eight of them keep a turn well under the 10 ms a
  /// fresh client's `PING` may wait (BENCHMARKS.md, "Feedback hooks").
  public static let defaultHooksMaxRunning = 8
}
