import BadgeCore

/// The one-line forms of a channel's state that `get`, `list` and the mutating commands print.
enum SnapshotFormat: String, CaseIterable {
  /// `mail 4`, `ci 120 (99+)`, `alerts 3 (•) muted pulsing`, `mail offline`.
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
    if s.muted { line += " muted" }
    if s.isPulsing { line += " pulsing" }
    if !s.online { line += " offline" }
    return line
  }

  static func jsonLine(_ s: ChannelSnapshot) -> String {
    "{\"channel\":\(JSONText.string(s.channel)),\"count\":\(s.count),\"label\":\(JSONText.string(s.label)),"
      + "\"dot\":\(s.dot),\"pulse\":\(s.pulseMs),\"muted\":\(s.muted),\"seq\":\(s.seq),\"online\":\(s.online)}"
  }
}

/// JSON text without Foundation.
enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
