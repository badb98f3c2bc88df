/// tmux status styles: `#[fg=#rrggbb]` with the badge's ink, `bold` through the bounce, and
/// `blink` during the pulse window (the terminal blinks it, so no redraw is needed; tmux
/// redraws at most once a second anyway).
struct TmuxDialect: TextDialect {
  let palette: Palette

  /// `#` starts a tmux format; `##` is a literal one.
  func escape(_ text: String) -> String {
    Printable.text(text).replacing("#", with: "##")
  }

  func badge(_ frame: BadgeFrame) -> String {
    let text = LabelCell.text(of: frame)
    guard !text.isEmpty else { return "" }
    var styles = ["fg=" + frame.ink(palette).hex]
    if frame.emphasis >= .bold { styles.append("bold") }
    if frame.pulsing { styles.append("blink") }
    return "#[" + styles.joined(separator: ",") + "]" + escape(text) + "#[default]"
  }
}

enum TmuxFormat {
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    TextLine.compose(frames, in: TmuxDialect(palette: options.palette), options: options) + "\n"
  }
}
