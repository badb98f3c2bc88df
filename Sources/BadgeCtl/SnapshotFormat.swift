import BadgeCore
import BadgeProtocol
import BadgeRender

/// The one-line forms of a channel's state that `get`, `list` and the mutating commands print,
/// and of the do-not-disturb state that `dnd` prints.
enum SnapshotFormat: String, CaseIterable {
  /// `mail 4`, `ci 120 (99+)`, `alerts 3 (•) muted pulsing`, `mail 4 (1) 1 new dnd`; a
  /// mirrored channel says where it is kept: `ci 3 on server`, `ci 4 on server offline pending`;
  /// a channel a source counts names it: `mail 4 (◦) 0 new source inbox`, `… source inbox stale`.
  case plain
  /// One JSON object per line.
  case json

  func line(_ snapshot: ChannelSnapshot) -> String {
    switch self {
    case .plain: return SnapshotFormat.plainLine(snapshot)
    case .json: return SnapshotFormat.jsonLine(snapshot)
    }
  }

  static func plainLine(_ s: ChannelSnapshot) -> String {
    var line = "\(s.channel) \(s.count)"
    if !s.label.isEmpty && s.label != String(s.count) { line += " (\(s.label))" }
    if s.unseen != s.count { line += " \(s.unseen) new" }
    if s.muted { line += " muted" }
    if s.silenced != nil { line += " dnd" }
    if s.isPulsing { line += " pulsing" }
    if let mirror = s.mirror {
      line += " on \(mirror.owner)"
      if mirror.stale { line += " offline" }
      if mirror.pending { line += " pending" }
    }
    if let source = s.source {
      line += " source \(source.name)"
      if source.stale { line += " stale" }
    }
    return line
  }

  static func jsonLine(_ s: ChannelSnapshot) -> String {
    var object = JSONObject()
    object.addState(of: s)
    return object.text
  }
}

extension SnapshotFormat {
  /// The do-not-disturb state: `dnd on (30m left)`, `dnd on`, `dnd off`; or
  /// `{"dnd":true,"left":1800000}`.
  func line(_ dnd: DNDSnapshot) -> String {
    switch self {
    case .plain:
      guard dnd.isOn else { return "dnd off" }
      return dnd.leftMs > 0 ? "dnd on (\(SnapshotFormat.duration(dnd.leftMs)) left)" : "dnd on"
    case .json:
      var object = JSONObject()
      object.add("dnd", dnd.isOn)
      object.add("left", dnd.leftMs)
      return object.text
    }
  }

  /// A duration in its largest whole units, rounded up: `2h`, `1h 30m`, `30m`, `45s`.
  static func duration(_ ms: Int) -> String {
    let seconds = (ms + 999) / 1000
    if seconds < 60 { return "\(seconds)s" }
    let minutes = (seconds + 59) / 60
    if minutes < 60 { return "\(minutes)m" }
    return minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h \(minutes % 60)m"
  }
}
