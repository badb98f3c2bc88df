/// A five-row block font for counts in a terminal: digits, `+`, `?`, `-`, and three dots.
enum BigFont {
  static let height = 5
  static let width = 3

  /// The rows of `glyph`, each `width` cells wide; "?" for a glyph the font lacks.
  static func rows(_ glyph: Character) -> [String] {
    glyphs[glyph] ?? glyphs["?"]!
  }

  private static let glyphs: [Character: [String]] = [
    "0": ["███", "█ █", "█ █", "█ █", "███"],
    "1": [" █ ", "██ ", " █ ", " █ ", "███"],
    "2": ["███", "  █", "███", "█  ", "███"],
    "3": ["███", "  █", " ██", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"],
    "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"],
    "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"],
    "9": ["███", "█ █", "███", "  █", "███"],
    "+": ["   ", " █ ", "███", " █ ", "   "],
    "-": ["   ", "   ", "███", "   ", "   "],
    "?": ["███", "  █", " ██", "   ", " █ "],
    " ": ["   ", "   ", "   ", "   ", "   "],
    DotGlyph.small: ["   ", "   ", " ▄ ", "   ", "   "],
    DotGlyph.regular: ["   ", " ▄ ", "▐█▌", " ▀ ", "   "],
    DotGlyph.large: ["   ", "▄█▄", "███", "▀█▀", "   "],
  ]
}
