/// The terminal in big mode: each channel's name on the bottom row, its count in `BigFont`,
/// and a roll that slides the changing digit columns vertically, row by row.
enum BigFormat {
  /// Rows a glyph moves per glyph height: its own height and one blank row between glyphs.
  static let stride = BigFont.height + 1

  /// The rows of one frame of every channel; `redraw` moves the cursor back up over the rows
  /// of the previous frame first.
  static func render(_ frames: [BadgeFrame], options: RenderOptions, redraw: Bool) -> String {
    var rows = Array(repeating: StyledText(), count: BigFont.height)
    for (index, frame) in frames.enumerated() {
      if index > 0 {
        append(Array(repeating: Printable.text(options.separator), count: BigFont.height), to: &rows)
      }
      append(channelColumn(frame.channel), to: &rows)
      for (row, text) in countRows(frame, palette: options.palette).enumerated() { rows[row].append(text) }
    }
    let lines = rows.map { $0.ansi(options.colour) }
    guard options.rewrite else { return lines.joined(separator: "\n") + "\n" }
    let up = redraw ? "\u{1B}[\(BigFont.height - 1)A" : ""
    return up + lines.map { TermFormat.eraseLine + $0 }.joined(separator: "\n")
  }

  /// The count of `frame` in `BigFont`, `BigFont.height` rows, its changing digit columns
  /// sliding with the roll; empty rows when the badge is hidden.
  static func countRows(_ frame: BadgeFrame, palette: Palette) -> [StyledText] {
    var rows = Array(repeating: StyledText(), count: BigFont.height)
    guard !frame.isHidden else { return rows }
    let style = TextStyle(foreground: frame.ink(palette), bold: frame.emphasis >= .bold)
    for (column, cell) in LabelCell.sizedCells(of: frame).enumerated() {
      for row in 0..<BigFont.height {
        rows[row].append((column > 0 ? " " : "") + slice(of: cell, row: row), style)
      }
    }
    return rows
  }

  /// What row `row` of a cell shows: the entering glyph shifted by its offset, or the leaving
  /// glyph one glyph (plus a blank row) beyond it, or nothing between them.
  static func slice(of cell: LabelCell, row: Int) -> String {
    let shift = Int((cell.offset * Double(stride)).rounded())
    let entering = row - shift
    if entering >= 0, entering < BigFont.height { return BigFont.rows(cell.glyph)[entering] }
    if let leaving = cell.leaving {
      let leavingShift = shift + (cell.leavingOffset < cell.offset ? -stride : stride)
      let source = row - leavingShift
      if source >= 0, source < BigFont.height { return BigFont.rows(leaving)[source] }
    }
    return String(repeating: " ", count: BigFont.width)
  }

  /// The channel's name on the bottom row and a space after it, blank above.
  private static func channelColumn(_ channel: String) -> [String] {
    let name = Printable.text(channel) + " "
    let blank = String(repeating: " ", count: name.count)
    return Array(repeating: blank, count: BigFont.height - 1) + [name]
  }

  private static func append(_ column: [String], to rows: inout [StyledText]) {
    for row in rows.indices { rows[row].append(column[row]) }
  }
}
