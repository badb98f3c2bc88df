/// Where the glyph and the badge are, in fractions of the icon's side S: the glyph fills the
/// bottom-left square and the badge sits on its top-right corner, half outside it, as seed 004
/// places it, moved in only as far as the icon's edge needs.
public enum TrayIconGeometry {
  /// The capsule's resting height, of the side, at scale 1 (the dot's diameter too).
  public static let capsuleHeight = 0.42
  /// The glyph's square: from (0, glyphTop) to (glyphSide, 1).
  public static let glyphTop = 0.16
  public static let glyphSide = 0.84
  /// The badge's centre height: the glyph's top (0.16) moved down so that the capsule stays
  /// inside the icon up to the bounce's peak (0.42 × 1.31 / 2 ≈ 0.275), and kept there at
  /// every scale so that the bounce grows about a fixed point.
  public static let badgeCentreY = 0.28
  /// The text's size, of the capsule's height.
  public static let textSize = 0.72
  /// The capsule's width beyond its text, of its height (a quarter height each side).
  public static let textPadding = 0.5
  /// The pulse ring's line width, of the side.
  public static let ringWidth = 0.06

  /// The capsule's height: 0.42 × size × scale pixels (drawn rounded to whole pixels,
  /// `capsuleRows`).
  public static func capsuleHeight(size: Int, scale: Double) -> Double {
    capsuleHeight * Double(size) * scale
  }

  /// The glyph's square on whole pixels, so that an app's PNG and the bell's flat rim are sharp:
  /// its side is 0.84 S rounded, its bottom-left corner the icon's.
  public static func glyphSquare(size: Int) -> (top: Double, side: Double) {
    let side = (glyphSide * Double(size)).rounded()
    return (Double(size) - side, side)
  }

  /// The rows the capsule covers, centred on `centreY`: its height rounded to whole pixels and its
  /// top on a pixel boundary, so that its top and bottom edges are sharp at every scale.
  public static func capsuleRows(size: Int, scale: Double, centreY: Double) -> (top: Double, height: Double) {
    let height = max(capsuleHeight(size: size, scale: scale).rounded(), 1)
    return ((centreY - height / 2).rounded(), height)
  }

  /// The capsule's width for a text this wide, both at the same scale: at least its height.
  public static func capsuleWidth(height: Double, textWidth: Double) -> Double {
    max(height, textWidth + textPadding * height)
  }

  /// The badge's centre for a resting capsule `restingWidth` pixels wide: on the glyph's
  /// top-right corner, moved left as little as keeps the resting capsule inside the icon.
  public static func badgeCentre(size: Int, restingWidth: Double) -> (x: Double, y: Double) {
    let side = Double(size)
    return (min(glyphSide * side, side - restingWidth / 2), badgeCentreY * side)
  }
}
