/// How a channel's badge shows its count.
public enum ChannelStyle: String, Sendable, CaseIterable {
  /// The number, truncated to `<max_label>+`.
  case count
  /// A dot whenever the count is above zero.
  case dot
}

/// What a channel's label counts.
public enum BadgeCounts: String, Sendable, CaseIterable {
  /// Every unread item.
  case count
  /// Only the items that arrived since the channel was last seen (`SEEN`); with unread items
  /// that were all seen, the label is the quiet dot.
  case unseen
}

/// Whether do-not-disturb silences a channel.
public enum DNDPolicy: String, Sendable, CaseIterable {
  /// Do-not-disturb silences the channel (the default).
  case obey
  /// The channel always shows and pulses, as a pager must.
  case ignore
}

/// The limits of every value the model accepts, in one place so that the protocol, the
/// config parser and the docs agree.
public enum Limits {
  /// The largest count a channel holds (the largest 32-bit signed integer).
  public static let maxCount = 2_147_483_647
  /// The largest running total another machine's state may carry (`MIRROR … total=`, a
  /// state on the broker): 2^53, the largest integer every JSON reader holds exactly. An owner
  /// whose channel rose by a million items a second would take 285 years to reach it; a
  /// total above it is refused as one no owner reached, so that nothing published on the
  /// broker can push a channel's total, and the clears that name it, near `Int.max`.
  public static let maxTotal = 1 << 53
  /// The accepted range of `max_label`.
  public static let maxLabel = 1...maxCount
  /// The accepted range of `pulse_ms`: up to an hour; 0 turns pulsing off.
  public static let pulseMs = 0...3_600_000
  /// The accepted range of `step`: any count a single change can make.
  public static let step = 1...maxCount
  /// The longest desktop id `export` takes, in bytes: the longest D-Bus name, which a D-Bus
  /// activatable app's id is. It keeps a channel's record well inside the largest one a
  /// reader of the state folder trusts.
  public static let maxDesktopIDLength = 255
}

/// The settings in force for one channel: one field a setting, with its built-in value.
///
/// `SettingKey` describes each setting once for everything that handles settings one by one;
/// a new setting is a field here, a field in `SettingsOverride`, and a `SettingKey` with its
/// line in `SettingKey.visitAll`.
public struct ChannelSettings: Equatable, Sendable {
  /// Counts above this show as `<maxLabel>+`.
  public var maxLabel = 99
  public var style = ChannelStyle.count
  /// How long a channel pulses after an increase, in milliseconds.
  public var pulseMs = 3000
  /// A muted channel keeps counting but never pulses.
  public var muted = false
  /// What the label counts: every unread item, or the unseen ones.
  public var badge = BadgeCounts.count
  /// Whether do-not-disturb silences the channel.
  public var dnd = DNDPolicy.obey
  /// What a client's stepper (`badgectl top`'s - and +) changes the count by. The daemon only
  /// keeps and reports it, so that every client steps a channel alike.
  public var step = 1
  /// The desktop id (without `.desktop`) the channel's count is announced for to docks
  /// (LauncherEntry); `nil` when it is not exported.
  public var export: String? = nil

  /// The built-in settings: a channel's when neither the config nor a client set any.
  public static let defaults = ChannelSettings()
}

/// A partial set of settings: a `[channel …]` section of the config, or what a client set over
/// the socket. A `nil` field leaves the value beneath it in force.
public struct SettingsOverride: Equatable, Sendable {
  public var maxLabel: Int?
  public var style: ChannelStyle?
  public var pulseMs: Int?
  public var muted: Bool?
  public var badge: BadgeCounts?
  public var dnd: DNDPolicy?
  public var step: Int?
  public var export: String?

  /// No setting set.
  public static let empty = SettingsOverride()

  /// Whether no field is set.
  public var isEmpty: Bool {
    var finding = FindingSet(override: self)
    SettingKey.visitAll(&finding)
    return !finding.found
  }

  /// `base` with every set field of this override put over it.
  public func applied(to base: ChannelSettings) -> ChannelSettings {
    var applying = Applying(override: self, settings: base)
    SettingKey.visitAll(&applying)
    return applying.settings
  }

  /// This override with every set field of `other` put over it.
  public func merged(with other: SettingsOverride) -> SettingsOverride {
    var merging = Merging(top: other, merged: self)
    SettingKey.visitAll(&merging)
    return merging.merged
  }

  /// The settings this override sets, each with its value in plain form, in
  /// `SettingKey.allCases` order: what a record keeps.
  public var values: [(key: SettingKey, value: PlainSettingValue)] {
    var listing = ListingValues(override: self)
    SettingKey.visitAll(&listing)
    return listing.values
  }
}
