/// Polybar format tags: the badge's ink (faded by its opacity) as `%{F#rrggbb}`, an underline
/// around the bounce's peak, and an optional click area around the whole module.
struct PolybarDialect: TextDialect {
  let palette: Palette

  /// Polybar has no escape for a literal `%{`: an empty offset tag (`%{O0}`) between `%` and
  /// `{` keeps it from opening a tag.
  func escape(_ text: String) -> String {
    Printable.text(text).replacing("%{", with: "%%{O0}{")
  }

  func badge(_ frame: BadgeFrame) -> String {
    let text = LabelCell.text(of: frame)
    guard !text.isEmpty else { return "" }
    let underlined = frame.emphasis == .peak ? "%{+u}" + escape(text) + "%{-u}" : escape(text)
    return "%{F" + frame.ink(palette).hex + "}" + underlined + "%{F-}"
  }
}

enum PolybarFormat {
  /// The words of a click command filled in per channel: its name, and the running total it
  /// shows, so `badgectl clear {channel} --upto {total}` clears what was clicked and nothing
  /// newer.
  static let channelWord = "{channel}"
  static let totalWord = "{total}"

  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    let dialect = PolybarDialect(palette: options.palette)
    guard let command = options.clickCommand else {
      return TextLine.compose(frames, in: dialect, options: options) + "\n"
    }
    guard command.contains(channelWord) || command.contains(totalWord) else {
      let line = TextLine.compose(frames, in: dialect, options: options)
      return (line.isEmpty ? "" : area(command, line)) + "\n"
    }
    // A click area of each channel's own; a daemon that sends no total gets one above any
    // total, a clear of everything, as before totals.
    return TextLine.compose(frames, in: dialect, options: options) { frame, text in
      let filled = command.replacing(channelWord, with: frame.channel)
        .replacing(totalWord, with: String(frame.state.total ?? Int.max))
      return area(filled, text)
    } + "\n"
  }

  /// `text` as a left-click area that runs `command`.
  private static func area(_ command: String, _ text: String) -> String {
    // A colon ends the command inside the tag; polybar reads "\:" as a literal one.
    "%{A1:" + Printable.text(command).replacing(":", with: "\\:") + ":}" + text + "%{A}"
  }
}
