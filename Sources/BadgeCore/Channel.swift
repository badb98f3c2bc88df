/// One channel's state as the daemon keeps it.
public struct Channel: Sendable {
  public let name: ChannelName
  /// The unread count, 0 … `Limits.maxCount`.
  public internal(set) var count: Int = 0
  /// The items that arrived since the channel was last seen (`SEEN`): 0 … `count`.
  public internal(set) var unseen: Int = 0
  /// The running total: the sum of the channel's increases since it was made, never less than
  /// `count` and never decreasing. A clear up to a total (`CLEAR <channel> upto=<total>`)
  /// clears only the items a client saw, those up to it. A channel made anew starts at the
  /// store's `totalFloor` (the largest total of a channel forgotten), so that a clear up to a
  /// total shown before a channel of its name was forgotten clears none of the new items.
  public internal(set) var total: Int = 0
  /// The channel's settings, shared by every copy of the channel (replies, events, the change
  /// log, undo): a copy of a channel copies one reference rather than three sets of settings
  /// with their optional strings. Never changed in place; a settings change makes a new one.
  @usableFromInline var setup: ChannelSetup
  /// The settings the config gives this channel (defaults with any matching sections over them).
  @inlinable public var configured: ChannelSettings { setup.configured }
  /// Whether a `[channel …]` section of the config matched this channel.
  @inlinable public var hasConfigSection: Bool { setup.hasConfigSection }
  /// Settings made over the socket (`MUTE`, `CONFIGURE`); they win over the config.
  public internal(set) var override: SettingsOverride {
    @inlinable get { setup.override }
    set { setup = setup.with(override: newValue) }
  }
  /// What the channel carries as a mirror of another machine's (`MIRROR`); `nil` for a local
  /// channel. Kept with the settings, so that a local channel's copies carry nothing more.
  /// Whether the channel mirrors another machine's: a flag read on the path of every change,
  /// where the mirror state itself (a host name among it) is not copied.
  @inlinable public var isMirrored: Bool { setup.isMirrored }
  public internal(set) var mirror: MirrorState? {
    @inlinable get { setup.mirror }
    set { setup = setup.with(mirror: .some(newValue)) }
  }
  /// Whether a source of `badged-sources` counts the channel: a flag read on the path of every
  /// change, where the mark itself is not copied.
  @inlinable public var isSourced: Bool { setup.isSourced }
  /// The source that counts the channel (`SOURCE <name> claim`), `nil` for every other channel.
  /// Kept with the settings, as `mirror` is, and never journaled: claims live in memory.
  public internal(set) var source: SourceMark? {
    @inlinable get { setup.source }
    set { setup = setup.with(source: .some(newValue)) }
  }
  /// The settings in force: `override` over `configured`. Kept rather than derived because
  /// every reply and event reads it.
  @inlinable public var settings: ChannelSettings { setup.settings }
  /// How do-not-disturb shows the channel now; `nil` when it is not silenced (do-not-disturb
  /// is off, or the channel has `dnd = ignore`). Kept by the store, which knows both.
  public internal(set) var silenced: DNDBadges?
  /// When the pulse window ends, in microseconds of the injected monotonic clock; 0 when the
  /// channel is not pulsing.
  public internal(set) var pulseUntil: UInt64 = 0
  /// The global sequence number of this channel's last change; 0 when it never changed.
  public internal(set) var seq: UInt64 = 0

  init(name: ChannelName, configured: ChannelSettings, hasConfigSection: Bool) {
    self.name = name
    self.setup = ChannelSetup.make(
      configured: configured, hasConfigSection: hasConfigSection, override: SettingsOverride())
  }

  /// Puts the config's settings for the channel under its override.
  mutating func configure(_ configured: ChannelSettings, hasConfigSection: Bool) {
    setup = ChannelSetup.make(
      configured: configured, hasConfigSection: hasConfigSection, override: setup.override, mirror: setup.mirror,
      source: setup.source)
  }

  /// Whether the override is that of `other` (the settings the channel had); cheap when the
  /// channel still shares them, as a count change leaves them.
  func hasOverride(of other: ChannelSetup) -> Bool {
    setup === other
      || (setup.override == other.override && setup.mirror == other.mirror && setup.source == other.source)
  }

  /// Whether a client made settings for the channel (its override sets any), as found once when
  /// the settings were made: the journal asks with every change.
  @inlinable public var hasOverride: Bool { setup.hasOverride }

  /// Whether `LIST` shows the channel and snapshots keep it: it has a count or a setting,
  /// mirrors another machine's, or a source counts it (a claimed channel is never forgotten).
  public var isListed: Bool { count > 0 || hasConfigSection || hasOverride || setup.isMirrored || setup.isSourced }

  /// Milliseconds left in the pulse window at `now` (rounded up, so a running window never
  /// reads 0), or 0 when the channel is not pulsing.
  @inline(__always)
  public func pulseLeftMs(at now: UInt64) -> Int {
    guard pulseUntil > now else { return 0 }
    return Int((pulseUntil - now + 999) / 1000)
  }

  /// The label a badge shows for this channel.
  public var label: String { Label.text(count: count, unseen: unseen, settings: settings) }

  /// A client-side value of this channel at `now`.
  public func snapshot(at now: UInt64) -> ChannelSnapshot {
    ChannelSnapshot(
      channel: name.description, count: count, label: label, dot: settings.style == .dot,
      pulseMs: pulseLeftMs(at: now), muted: settings.muted, seq: seq, badge: settings.badge,
      silenced: silenced, unseen: unseen, step: settings.step, total: total, mirror: isMirrored ? mirror : nil,
      source: isSourced ? source : nil)
  }
}

/// One channel's settings, immutable so that copies of the channel can share it.
@usableFromInline final class ChannelSetup: Sendable {
  @usableFromInline let configured: ChannelSettings
  @usableFromInline let hasConfigSection: Bool
  @usableFromInline let override: SettingsOverride
  /// Whether `override` sets anything.
  @usableFromInline let hasOverride: Bool
  /// `override` over `configured`, computed once when the settings are made.
  @usableFromInline let settings: ChannelSettings
  /// The channel's mirror state, `nil` for a local channel (every plain one).
  @usableFromInline let mirror: MirrorState?
  /// `mirror != nil`, kept so that the path of every change reads a flag.
  @usableFromInline let isMirrored: Bool
  /// The source that counts the channel, `nil` for every channel no source claimed.
  @usableFromInline let source: SourceMark?
  /// `source != nil`, kept so that the path of every change reads a flag.
  @usableFromInline let isSourced: Bool

  /// The settings of every channel with the built-in defaults, no `[channel …]` section and no
  /// override: most channels, which then share this one object rather than each holding a
  /// copy.
  static let plain = ChannelSetup(
    configured: .defaults, hasConfigSection: false, override: SettingsOverride())

  /// `plain` when the settings are its own, else a new object: the one way a channel gets its
  /// settings, so that no default channel holds a copy.
  static func make(
    configured: ChannelSettings, hasConfigSection: Bool, override: SettingsOverride, mirror: MirrorState? = nil,
    source: SourceMark? = nil
  ) -> ChannelSetup {
    if !hasConfigSection && override.isEmpty && mirror == nil && source == nil && configured == plain.configured {
      return plain
    }
    return ChannelSetup(
      configured: configured, hasConfigSection: hasConfigSection, override: override, mirror: mirror, source: source)
  }

  /// These settings with the override, the mirror state or the source mark given (a `nil`
  /// argument keeps this one's): the one way a channel changes one of them.
  func with(
    override: SettingsOverride? = nil, mirror: MirrorState?? = nil, source: SourceMark?? = nil
  ) -> ChannelSetup {
    ChannelSetup.make(
      configured: configured, hasConfigSection: hasConfigSection, override: override ?? self.override,
      mirror: mirror ?? self.mirror, source: source ?? self.source)
  }

  private init(
    configured: ChannelSettings, hasConfigSection: Bool, override: SettingsOverride, mirror: MirrorState? = nil,
    source: SourceMark? = nil
  ) {
    self.mirror = mirror
    isMirrored = mirror != nil
    self.source = source
    isSourced = source != nil
    self.configured = configured
    self.hasConfigSection = hasConfigSection
    self.override = override
    self.hasOverride = !override.isEmpty
    self.settings = override.applied(to: configured)
  }
}
