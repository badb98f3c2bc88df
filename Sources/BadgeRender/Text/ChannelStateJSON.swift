import BadgeCore

/// The JSON fields of a channel's state, in one order and with one set of names for every
/// place that writes them: `badgectl get`, `list` and the changing commands print exactly
/// these, and `watch --format json` (and `eww`) starts each object with them before its
/// animated properties.
extension JSONObject {
  /// The state's fields: `channel`, `count`, `label`, `dot`, `pulse` (milliseconds left in the
  /// pulse window), `muted`, `seq`, `badge` (`count` or `unseen`), `dnd` (`off`, or how
  /// do-not-disturb shows it: `hide`, `dim`, `show`), `unseen`, `total` (the running total,
  /// when the daemon sent it), `online`; for a channel mirrored from another machine then
  /// `owner`, `stale`, `since` (0 unless stale) and `pending` (a local channel has none); for
  /// a channel a source counts then `source`, `stale` and `since` (no other channel has them).
  public mutating func addState(of snapshot: ChannelSnapshot) {
    add("channel", snapshot.channel)
    add("count", snapshot.count)
    add("label", snapshot.label)
    add("dot", snapshot.dot)
    add("pulse", snapshot.pulseMs)
    add("muted", snapshot.muted)
    add("seq", snapshot.seq)
    add("badge", snapshot.badge.rawValue)
    add("dnd", snapshot.silenced?.rawValue ?? "off")
    add("unseen", snapshot.unseen)
    if let total = snapshot.total { add("total", total) }
    add("online", snapshot.online)
    if let mirror = snapshot.mirror {
      add("owner", mirror.owner)
      add("stale", mirror.stale)
      add("since", mirror.stale ? mirror.since : 0)
      add("pending", mirror.pending)
    }
    if let source = snapshot.source {
      add("source", source.name)
      add("stale", source.stale)
      add("since", source.stale ? source.since ?? 0 : 0)
    }
  }
}
