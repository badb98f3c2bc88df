import BadgeConfig
import BadgeCore
import BadgeRender

extension TrayConfig {
  /// The section's name in the config file.
  public static let section = DaemonConfig.traySection

  /// Builds the tray's config from the entries of a config file: the `[tray]` section's, the
  /// others being the daemon's, the bridge's and the sources'. No section gives the defaults.
  ///
  /// Entries are taken in file order and the first fault is reported; a key given twice keeps
  /// its later value, as everywhere in badged.conf. Text on the badge that reads under 4.5:1
  /// is refused at the later of the two colours' lines.
  ///
  /// - Throws: `ConfigError` (`file:line: reason`) naming the first fault.
  public static func parse(_ entries: [ConfigEntry], file: String) throws(ConfigError) -> TrayConfig {
    var config = TrayConfig()
    let lines: [Key: Int] = try SectionEntries.apply(entries, section: section, file: file) {
      (key: Key, value: String) throws(SettingKey.InvalidValue) in try config.apply(key, value)
    }
    let contrast = config.textColour.contrastRatio(config.badgeColour)
    if contrast < minimumContrast {
      throw ConfigError(
        file: file, line: max(lines[.textColour] ?? 0, lines[.badgeColour] ?? 0),
        reason:
          "\(Key.textColour.rawValue) \(config.textColour.hex) on \(Key.badgeColour.rawValue) "
          + "\(config.badgeColour.hex) has a contrast of \(refusedRatioText(contrast)):1; at least "
          + "\(minimumContrast):1 is needed")
    }
    return config
  }

  /// Applies one key's value.
  private mutating func apply(_ key: Key, _ value: String) throws(SettingKey.InvalidValue) {
    func colour() throws(SettingKey.InvalidValue) -> RGB {
      guard let colour = RGB(hex: value) else { throw SettingKey.InvalidValue(reason: "expected a colour #rrggbb") }
      return colour
    }
    switch key {
    case .items: items = try TrayConfig.items(value)
    case .empty: empty = try SettingKey.word(value)
    case .activate: activate = try SettingKey.word(value)
    case .scroll: scroll = try SettingKey.word(value)
    case .reduceMotion: reduceMotion = try SettingKey.word(value)
    case .badgeColour: badgeColour = try colour()
    case .textColour: textColour = try colour()
    case .glyphColour: glyphColour = try colour()
    case .maxLabel: maxLabel = try SettingKey.integer(value, in: TrayConfig.maxLabelRange)
    }
  }

  /// `items`: at least one pattern, none twice (two items would show the same channels).
  private static func items(_ value: String) throws(SettingKey.InvalidValue) -> [ChannelPattern] {
    let patterns = try SettingKey.patterns(value)
    guard !patterns.isEmpty else {
      throw SettingKey.InvalidValue(reason: "expected at least one channel name or glob")
    }
    var seen: Set<ChannelPattern> = []
    for pattern in patterns where !seen.insert(pattern).inserted {
      throw SettingKey.InvalidValue(reason: "'\(pattern)' is listed twice")
    }
    return patterns
  }

  /// A refused contrast ratio to two decimals, rounded, but never shown as the 4.50 it failed to
  /// reach (4.497 reads 4.49).
  static func refusedRatioText(_ ratio: Double) -> String {
    let hundredths = min(Int((ratio * 100).rounded()), Int(minimumContrast * 100) - 1)
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }
}
