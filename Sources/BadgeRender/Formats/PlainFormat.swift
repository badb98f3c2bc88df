/// Plain text: the glyphs a one-row cell shows, no escapes of any kind.
struct PlainDialect: TextDialect {
  func escape(_ text: String) -> String { Printable.text(text) }

  func badge(_ frame: BadgeFrame) -> String { LabelCell.text(of: frame) }
}

enum PlainFormat {
  static func render(_ frames: [BadgeFrame], options: RenderOptions) -> String {
    TextLine.compose(frames, in: PlainDialect(), options: options) + "\n"
  }
}
