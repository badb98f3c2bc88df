/// A channel's state as a client sees it in one `STATE` or `EVENT` line: the value that
/// `badgectl` prints and that the renderers draw.
public struct ChannelSnapshot: Equatable, Sendable {
  public var channel: String
  public var count: Int
  /// What the daemon says the badge shows: "", "4", "99+", "•" or the quiet dot "◦".
  public var label: String
  /// Whether the channel has the dot style.
  public var dot: Bool
  /// Milliseconds left in the pulse window when the line was sent; 0 when resting.
  public var pulseMs: Int
  public var muted: Bool
  public var seq: UInt64
  /// What the label counts: every unread item or the unseen ones.
  public var badge: BadgeCounts
  /// How do-not-disturb shows the channel; `nil` when it is not silenced.
  public var silenced: DNDBadges?
  /// The unread items that arrived since the channel was last seen.
  public var unseen: Int
  /// What a stepper changes the count by: the channel's `step` setting (1 unless set).
  public var step: Int
  /// The channel's running total, the sum of its increases; `nil` from a daemon that does not
  /// send it (a line without ` total=`).
  public var total: Int?
  /// False when this is the last known state of a daemon that went away.
  public var online: Bool
  /// For a channel mirrored from another machine: its owner, staleness and pending writes
  /// (` owner= stale= [since=] [pending=1]`); `nil` for a local channel.
  public var mirror: MirrorState?
  /// For a channel a source counts: the source and its staleness (` source= stale= [since=]`);
  /// `nil` for every other channel.
  public var source: SourceMark?

  public init(
    channel: String, count: Int, label: String, dot: Bool, pulseMs: Int, muted: Bool,
    seq: UInt64, badge: BadgeCounts = .count, silenced: DNDBadges? = nil, unseen: Int? = nil,
    step: Int = 1, total: Int? = nil, online: Bool = true, mirror: MirrorState? = nil, source: SourceMark? = nil
  ) {
    self.mirror = mirror
    self.source = source
    self.channel = channel
    self.count = count
    self.label = label
    self.dot = dot
    self.pulseMs = pulseMs
    self.muted = muted
    self.seq = seq
    self.badge = badge
    self.silenced = silenced
    self.unseen = unseen ?? count
    self.step = step
    self.total = total
    self.online = online
  }

  /// Whether the channel is in its pulse window.
  public var isPulsing: Bool { pulseMs > 0 }

  /// Whether the badge is the quiet dot: unread items, all of them seen, on a `badge = unseen`
  /// channel.
  public var isQuiet: Bool { badge == .unseen && count > 0 && unseen == 0 }
}
