import BadgeCore

/// A channel's state as the watch stream hands it on, with what the tests vary.
func channel(
  _ name: String, _ count: Int, dot: Bool = false, pulseMs: Int = 0, muted: Bool = false, seq: UInt64 = 1,
  total: Int? = nil, mirror: MirrorState? = nil, source: SourceMark? = nil
) -> ChannelSnapshot {
  ChannelSnapshot(
    channel: name, count: count, label: Label.text(count: count, maxLabel: 99, style: dot ? .dot : .count), dot: dot,
    pulseMs: pulseMs, muted: muted, seq: seq, total: total ?? count, mirror: mirror, source: source)
}
