/// The terminal's badge drawings for screens that place them themselves (`badgectl top`):
/// exactly what `watch --format term` draws, as styled runs rather than escape codes.
public enum TermBadge {
  /// The badge of `frame` on one row: the pill whose weight and padding carry the bounce, the
  /// rolling digits, the dot's pulse, "99+", the offline "?"; empty when hidden.
  public static func styled(_ frame: BadgeFrame, palette: Palette = .standard, colour: ColourMode) -> StyledText {
    TermDialect(palette: palette, mode: colour).styled(frame)
  }

  /// The count of `frame` in the five-row digit font of `watch --big`, each changing digit
  /// column sliding with the roll.
  public static func bigRows(_ frame: BadgeFrame, palette: Palette = .standard) -> [StyledText] {
    BigFormat.countRows(frame, palette: palette)
  }

  /// The rows `bigRows` draws.
  public static let bigHeight = BigFont.height
}
