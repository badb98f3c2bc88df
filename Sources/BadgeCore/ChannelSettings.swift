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
  /// The accepted range of `max_label`.
  public static let maxLabel = 1...maxCount
  /// The accepted range of `pulse_ms`: up to an hour; 0 turns pulsing off.
  public static let pulseMs = 0...3_600_000
  /// The accepted range of `step`: any count a single change can make.
  public static let step = 1...maxCount
}

/// The settings in force for one channel.
public struct ChannelSettings: Equatable, Sendable {
  /// Counts above this show as `<maxLabel>+`.
  public var maxLabel: Int
  public var style: ChannelStyle
  /// How long a channel pulses after an increase, in milliseconds.
  public var pulseMs: Int
  /// A muted channel keeps counting but never pulses.
  public var muted: Bool
  /// What the label counts: every unread item, or the unseen ones.
  public var badge: BadgeCounts
  /// Whether do-not-disturb silences the channel.
  public var dnd: DNDPolicy
  /// What a client's stepper (`badgectl top`'s - and +) changes the count by. The daemon only
  /// keeps and reports it, so that every client steps a channel alike.
  public var step: Int
  /// The desktop id (without `.desktop`) the channel's count is announced for to docks
  /// (LauncherEntry); `nil` when it is not exported.
  public var export: String?

  public static let defaults = ChannelSettings(
    maxLabel: 99, style: .count, pulseMs: 3000, muted: false)

  public init(
    maxLabel: Int, style: ChannelStyle, pulseMs: Int, muted: Bool, badge: BadgeCounts = .count,
    dnd: DNDPolicy = .obey, step: Int = 1, export: String? = nil
  ) {
    self.maxLabel = maxLabel
    self.style = style
    self.pulseMs = pulseMs
    self.muted = muted
    self.badge = badge
    self.dnd = dnd
    self.step = step
    self.export = export
  }
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

  public init(
    maxLabel: Int? = nil, style: ChannelStyle? = nil, pulseMs: Int? = nil, muted: Bool? = nil,
    badge: BadgeCounts? = nil, dnd: DNDPolicy? = nil, step: Int? = nil, export: String? = nil
  ) {
    self.maxLabel = maxLabel
    self.style = style
    self.pulseMs = pulseMs
    self.muted = muted
    self.badge = badge
    self.dnd = dnd
    self.step = step
    self.export = export
  }

  /// Whether no field is set.
  public var isEmpty: Bool {
    maxLabel == nil && style == nil && pulseMs == nil && muted == nil && badge == nil && dnd == nil
      && step == nil && export == nil
  }

  /// `base` with every set field of this override put over it.
  public func applied(to base: ChannelSettings) -> ChannelSettings {
    ChannelSettings(
      maxLabel: maxLabel ?? base.maxLabel, style: style ?? base.style,
      pulseMs: pulseMs ?? base.pulseMs, muted: muted ?? base.muted, badge: badge ?? base.badge,
      dnd: dnd ?? base.dnd, step: step ?? base.step, export: export ?? base.export)
  }

  /// This override with every set field of `other` put over it.
  public func merged(with other: SettingsOverride) -> SettingsOverride {
    SettingsOverride(
      maxLabel: other.maxLabel ?? maxLabel, style: other.style ?? style,
      pulseMs: other.pulseMs ?? pulseMs, muted: other.muted ?? muted, badge: other.badge ?? badge,
      dnd: other.dnd ?? dnd, step: other.step ?? step, export: other.export ?? export)
  }
}
