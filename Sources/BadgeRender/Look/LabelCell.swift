/// One glyph position of a drawn label, with the roll that may be moving through it.
///
/// numericText moves only the glyphs that change: labels are right-aligned (the units column
/// stays the units column), and a column whose glyph is the same before and after stays still.
struct LabelCell: Equatable {
  /// The glyph entering, or resting in, the cell.
  var glyph: Character
  /// Its distance from its place, in glyph heights, positive downwards; 0 at rest.
  var offset: Double = 0
  /// The glyph leaving the cell during a roll; `nil` when the cell does not move.
  var leaving: Character?
  /// The leaving glyph's distance from the cell, one glyph height beyond `offset`.
  var leavingOffset: Double = 0

  /// The glyph that owns a one-row cell, with its distance from its place: the leaving glyph
  /// until the entering one is less than half a cell away.
  var owner: (glyph: Character, offset: Double) {
    guard let leaving, abs(offset) > 0.5 else { return (glyph, offset) }
    return (leaving, leavingOffset)
  }

  /// How visible the owner of a one-row cell is: 1 in place, fading to 0 half a cell away, so
  /// the old glyph fades as it leaves and the new one fades in as it arrives.
  var ownerAlpha: Double { max(0, 1 - 2 * abs(owner.offset)) }

  /// The cells of `frame`'s drawn label, with "?" appended when its channel is offline (the
  /// count is the last one known, not a current one).
  static func cells(of frame: BadgeFrame) -> [LabelCell] {
    var cells = rolling(frame)
    if !frame.online { cells.append(LabelCell(glyph: "?")) }
    return cells
  }

  /// The cells of `frame` for the terminal formats, whose dot changes glyph with its scale
  /// (· • ●): a live dot-style channel's dot is sized, an offline one keeps its "?".
  static func sizedCells(of frame: BadgeFrame) -> [LabelCell] {
    var cells = cells(of: frame)
    if frame.dot, frame.online, !cells.isEmpty { cells[0].glyph = DotGlyph.glyph(scale: frame.inkScale) }
    return cells
  }

  private static func rolling(_ frame: BadgeFrame) -> [LabelCell] {
    guard let roll = frame.roll else { return frame.drawnLabel.map { LabelCell(glyph: $0) } }
    let incoming = Array(frame.drawnLabel)
    let outgoing = Array(roll.from)
    let width = max(incoming.count, outgoing.count)
    let new = Array(repeating: " ", count: width - incoming.count) + incoming
    let old = Array(repeating: " ", count: width - outgoing.count) + outgoing
    return zip(new, old).map { entering, leaving in
      guard entering != leaving else { return LabelCell(glyph: entering) }
      return LabelCell(
        glyph: entering, offset: roll.offset, leaving: leaving, leavingOffset: roll.outgoingOffset)
    }
  }

  /// The one-row text of `cells`: each cell's owner.
  static func text(of cells: [LabelCell]) -> String {
    String(cells.map(\.owner.glyph))
  }

  /// What a one-row cell shows for `frame`: its cells' owners, "" when the badge is hidden.
  static func text(of frame: BadgeFrame) -> String {
    frame.isHidden ? "" : text(of: cells(of: frame))
  }
}
