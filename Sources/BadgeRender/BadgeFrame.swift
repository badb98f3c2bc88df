import BadgeCore

/// Which way a count's digits roll: numericText's direction.
public enum RollDirection: String, Sendable, Equatable {
  /// The count grew: the old glyph exits upwards, the new one enters from below.
  case up
  /// The count shrank: the old glyph exits downwards, the new one enters from above.
  case down
}

/// A digit roll in progress.
public struct Roll: Sendable, Equatable {
  /// The label rolling away.
  public var from: String
  public var direction: RollDirection
  /// Where the incoming glyphs are, in glyph heights from their resting place, positive
  /// downwards: from +1 to 0 when rolling up, from -1 to 0 when rolling down. The outgoing
  /// glyphs are one height further along (`offset - 1` up, `offset + 1` down).
  public var offset: Double

  public init(from: String, direction: RollDirection, offset: Double) {
    self.from = from
    self.direction = direction
    self.offset = offset
  }

  /// The offset of the outgoing glyphs.
  public var outgoingOffset: Double { direction == .up ? offset - 1 : offset + 1 }
}

/// What one channel's badge looks like at one instant: the value every renderer draws.
public struct BadgeFrame: Sendable, Equatable {
  public var channel: String
  public var count: Int
  /// The label of the count at rest ("" at 0, "4", "99+", "9+" with a watcher's own limit, "•").
  public var label: String
  /// The label drawn now: `label`, or the old label while a removal fades it out.
  public var drawnLabel: String
  /// Set while the digits roll.
  public var roll: Roll?
  /// The badge's scale: 1 at rest, about 1.31 at the bounce's peak, 0.5 when hidden.
  public var scale: Double
  /// The badge's opacity: 1 at rest, 0 when hidden.
  public var opacity: Double
  /// Whether the channel has the dot style.
  public var dot: Bool
  /// The pulse's extra scale of a dot (1…1.5); 1 outside the pulse window.
  public var dotScale: Double
  /// The pulse's opacity of a dot (1…0.4); 1 outside the pulse window.
  public var dotOpacity: Double
  public var muted: Bool
  /// False when this is the last known state of a daemon that went away.
  public var online: Bool
  /// Whether the channel is in its pulse window (never when muted or offline).
  public var pulsing: Bool
  /// Seconds since the change that started the current motion.
  public var elapsed: Double
  /// Milliseconds left in the pulse window at this instant, rounded up; 0 when not pulsing.
  public var pulseMs: Int
  /// The sequence number of the channel's last change, as the daemon sent it.
  public var seq: UInt64
  /// What the label counts: every unread item or the unseen ones.
  public var badge: BadgeCounts
  /// The unread items that arrived since the channel was last seen.
  public var unseen: Int
  /// How do-not-disturb shows the channel; `nil` when it does not silence it.
  public var silenced: DNDBadges?
  /// The channel's running total, as the daemon sent it (`nil`: it sent none).
  public var total: Int?
  /// For a channel mirrored from another machine: its owner, staleness and pending writes.
  public var mirror: MirrorState?
  /// The wall clock (unix seconds) at the instant the frame shows, which says how long a stale
  /// mirror's owner has been out of reach; `nil` when not known (the words then say only
  /// "offline").
  public var wallSeconds: Int?

  /// The channel's state as this frame shows it, for writers of the state's fields: its label
  /// (a watcher's own `--max` included) and the pulse window's milliseconds left now.
  public var state: ChannelSnapshot {
    ChannelSnapshot(
      channel: channel, count: count, label: label, dot: dot, pulseMs: pulseMs, muted: muted, seq: seq,
      badge: badge, silenced: silenced, unseen: unseen, total: total, online: online, mirror: mirror)
  }

  public init(
    channel: String, count: Int, label: String, drawnLabel: String? = nil, roll: Roll? = nil,
    scale: Double = 1, opacity: Double = 1, dot: Bool = false, dotScale: Double = 1,
    dotOpacity: Double = 1, muted: Bool = false, online: Bool = true, pulsing: Bool = false,
    elapsed: Double = 0, pulseMs: Int = 0, seq: UInt64 = 0, badge: BadgeCounts = .count,
    unseen: Int? = nil, silenced: DNDBadges? = nil, total: Int? = nil, mirror: MirrorState? = nil,
    wallSeconds: Int? = nil
  ) {
    self.mirror = mirror
    self.wallSeconds = wallSeconds
    self.channel = channel
    self.count = count
    self.label = label
    self.drawnLabel = drawnLabel ?? label
    self.roll = roll
    self.scale = scale
    self.opacity = opacity
    self.dot = dot
    self.dotScale = dotScale
    self.dotOpacity = dotOpacity
    self.muted = muted
    self.online = online
    self.pulsing = pulsing
    self.elapsed = elapsed
    self.pulseMs = pulseMs
    self.seq = seq
    self.badge = badge
    self.unseen = unseen ?? count
    self.silenced = silenced
    self.total = total
  }

  /// Whether nothing is drawn: no label and no fading one. An offline channel is always drawn,
  /// so that a stale count never passes for a fresh one.
  public var isHidden: Bool { drawnLabel.isEmpty && online }

  /// The number the label stands for: the count, or the unseen items with `badge = unseen`.
  public var shownCount: Int { badge == .unseen ? unseen : count }

  /// Whether the label is the quiet dot: unread items, all seen, on a `badge = unseen` channel.
  public var isQuiet: Bool { badge == .unseen && count > 0 && unseen == 0 }

  /// Whether the label stands for a larger number ("99+" for 120).
  public var isTruncated: Bool { !dot && !isQuiet && count > 0 && !label.isEmpty && label != String(shownCount) }
}
