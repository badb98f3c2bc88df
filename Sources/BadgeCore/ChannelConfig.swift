/// What the store takes from the daemon's config: the settings each channel gets (`[daemon]`'s
/// defaults with the `[channel …]` sections over them), how silenced badges show, and how many
/// channels each pool keeps.
///
/// The store owns this view rather than the config itself, so that the model knows nothing of
/// the config file, its hooks or the daemon's limits: BadgeConfig builds it from a
/// `DaemonConfig` (`DaemonConfig.channels`), at the start and at each reload.
public struct ChannelConfig: Equatable, Sendable {
  /// The settings of a channel no section names (`[daemon]` `pulse_ms`, `max_label`).
  public var defaults: ChannelSettings = .defaults
  /// The `[channel NAME]` and `[channel GLOB]` sections' settings, in file order.
  public var sections: [Section] = []
  /// How silenced badges show while do-not-disturb is on (`[daemon]` `dnd_badges`).
  public var dndBadges: DNDBadges = .hide
  /// How many channels each pool keeps at most, where the config sets it; a pool it leaves out
  /// keeps its `defaultLimit`.
  public var maxChannels: [ChannelPool: Int] = [:]

  public init() {}

  /// One `[channel …]` section's settings.
  public struct Section: Equatable, Sendable {
    public var pattern: ChannelPattern
    public var override: SettingsOverride

    public init(pattern: ChannelPattern, override: SettingsOverride) {
      self.pattern = pattern
      self.override = override
    }
  }

  /// The settings the config gives `name`, and whether any section matched it.
  ///
  /// Sections whose pattern is a glob apply first, in file order; a section naming the channel
  /// exactly applies last, so the most specific section wins. A channel a source counts
  /// (`sourced`) shows its unseen items (`badge = unseen`) unless a section says otherwise: a
  /// click on it marks its items seen and leaves them unread at the source, so its badge goes
  /// quiet until something new arrives.
  public func settings(for name: ChannelName, sourced: Bool = false) -> (settings: ChannelSettings, matched: Bool) {
    var override = SettingsOverride()
    var matched = false
    for section in sections where section.pattern.isGlob && section.pattern.matches(name) {
      override = override.merged(with: section.override)
      matched = true
    }
    for section in sections where !section.pattern.isGlob && section.pattern.matches(name) {
      override = override.merged(with: section.override)
      matched = true
    }
    if sourced && override.badge == nil { override.badge = .unseen }
    return (override.applied(to: defaults), matched)
  }

  /// The limit on the channels of `pool`.
  public func channelLimit(of pool: ChannelPool) -> ChannelLimit {
    ChannelLimit(maxChannels[pool] ?? pool.defaultLimit, key: pool.limitKey)
  }
}
