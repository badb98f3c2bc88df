import BadgeCore

/// How a scale shows where text cannot scale: a terminal cell or a bar without Pango.
///
/// The thresholds cut the bounce (1 → 1.31 → 1) into a bold stretch around a short peak, and
/// the fade (0.5 ↔ 1) into a small stretch at its hidden end.
enum Emphasis: Int, Comparable {
  /// Appearing or vanishing: no padding, no brackets.
  case small
  /// At rest.
  case regular
  /// Rising into or falling out of the bounce: bold.
  case bold
  /// Around the bounce's peak: bold and padded.
  case peak

  init(scale: Double) {
    switch scale {
    case ..<0.75: self = .small
    case ..<1.1: self = .regular
    case ..<1.2: self = .bold
    default: self = .peak
    }
  }

  static func < (lhs: Emphasis, rhs: Emphasis) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The dot at three sizes, for targets that scale a dot by changing its glyph.
enum DotGlyph {
  static let small: Character = "·"
  static let regular = Character(Label.dot)
  static let large: Character = "●"

  /// The glyph for a dot at `scale`; the pulse (1 → 1.5) switches to the large dot half way.
  static func glyph(scale: Double) -> Character {
    switch scale {
    case ..<0.75: return small
    case ..<1.25: return regular
    default: return large
    }
  }
}
