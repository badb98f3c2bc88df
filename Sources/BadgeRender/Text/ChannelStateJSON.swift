import BadgeCore

/// The JSON fields of a channel's state, in one order and with one set of names for every
/// place that writes them: `badgectl get`, `list` and the changing commands print exactly
/// these, and `watch --format json` (and `eww`) starts each object with them before its
/// animated properties.
extension JSONObject {
  /// The state's fields: `channel`, `count`, `label`, `dot`, `pulse` (milliseconds left in the
  /// pulse window), `muted`, `seq`, `online`.
  public mutating func addState(of snapshot: ChannelSnapshot) {
    addState(
      channel: snapshot.channel, count: snapshot.count, label: snapshot.label, dot: snapshot.dot,
      pulseMs: snapshot.pulseMs, muted: snapshot.muted, seq: snapshot.seq, online: snapshot.online)
  }

  /// The state's fields as a frame shows them: its label (a watcher's own `--max` included)
  /// and the pulse window's milliseconds left at the frame's time.
  mutating func addState(of frame: BadgeFrame) {
    addState(
      channel: frame.channel, count: frame.count, label: frame.label, dot: frame.dot,
      pulseMs: frame.pulseMs, muted: frame.muted, seq: frame.seq, online: frame.online)
  }

  private mutating func addState(
    channel: String, count: Int, label: String, dot: Bool, pulseMs: Int, muted: Bool,
    seq: UInt64, online: Bool
  ) {
    add("channel", channel)
    add("count", count)
    add("label", label)
    add("dot", dot)
    add("pulse", pulseMs)
    add("muted", muted)
    add("seq", seq)
    add("online", online)
  }
}
