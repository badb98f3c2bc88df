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
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    let line = TextLine.compose(frames, in: PolybarDialect(palette: options.palette), options: options)
    guard let command = options.clickCommand, !line.isEmpty else { return line + "\n" }
    // A colon ends the command inside the tag; polybar reads "\:" as a literal one.
    let escaped = Printable.text(command).replacing(":", with: "\\:")
    return "%{A1:" + escaped + ":}" + line + "%{A}\n"
  }
}
