/// Pango markup, as Waybar shows it: the badge's scale and opacity become a span's `size` and
/// `alpha` while it moves, and a rolling glyph really rises or sinks (`rise`) as it fades.
/// At rest the label is plain text, so CSS classes alone style it.
struct PangoDialect: TextDialect {
  /// A glyph's height in Pango units (1/1024 pt), for a bar font of about 10 pt.
  static let glyphRise = 10 * 1024.0

  func escape(_ text: String) -> String {
    var out = ""
    for character in Printable.text(text) {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.append(character)
      }
    }
    return out
  }

  func badge(_ frame: BadgeFrame) -> String {
    guard !frame.isHidden else { return "" }
    var inner = ""
    for cell in LabelCell.cells(of: frame) {
      let glyph = escape(String(cell.owner.glyph))
      let rise = -Int((cell.owner.offset * PangoDialect.glyphRise).rounded())
      let alpha = PangoDialect.alpha(cell.ownerAlpha * frame.inkOpacity)
      guard cell.leaving != nil, rise != 0 || alpha != PangoDialect.alpha(frame.inkOpacity) else {
        inner += glyph
        continue
      }
      inner += "<span rise=\"\(rise)\" alpha=\"\(alpha)%\">" + glyph + "</span>"
    }
    var attributes: [String] = []
    let size = DecimalFormat.percent(frame.inkScale)
    if size != 100 { attributes.append("size=\"\(size)%\"") }
    let alpha = PangoDialect.alpha(frame.inkOpacity)
    if alpha != 100 { attributes.append("alpha=\"\(alpha)%\"") }
    guard !attributes.isEmpty else { return inner }
    return "<span " + attributes.joined(separator: " ") + ">" + inner + "</span>"
  }

  /// An opacity as a Pango alpha percentage, at least 1% (0 is not a valid alpha).
  static func alpha(_ opacity: Double) -> Int {
    max(1, DecimalFormat.percent(opacity))
  }
}

/// Waybar's `"return-type": "json"`: one object per line for all channels.
enum WaybarFormat {
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    let dialect = PangoDialect()
    var object = JSONObject()
    object.add("text", TextLine.compose(frames, in: dialect, options: options))
    object.add("alt", BadgeState(frames).rawValue)
    let tooltip = frames.map { dialect.escape(AccessibleText.describe($0)) }
    object.add("tooltip", tooltip.joined(separator: "\n"))
    object.add("class", BadgeFrame.classes(of: frames))
    object.add("percentage", min(100, frames.reduce(0) { $0 + $1.count }))
    return object.text + "\n"
  }
}
