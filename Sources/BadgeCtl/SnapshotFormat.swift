import BadgeCore
import BadgeRender

/// The one-line forms of a channel's state that `get`, `list` and the mutating commands print.
enum SnapshotFormat: String, CaseIterable {
  /// `mail 4`, `ci 120 (99+)`, `alerts 3 (•) muted pulsing`, `mail 4 (1) 1 new dnd`.
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
    return line
  }

  static func jsonLine(_ s: ChannelSnapshot) -> String {
    var object = JSONObject()
    object.addState(of: s)
    return object.text
  }
}
