import BadgeCtl
import CQRencode
import Glibc

/// A QR code drawn in a terminal with half-block characters: each character is two modules
/// of a column, one above the other, so the code comes out about square in a terminal's cells.
package enum QRCodeText {
  /// The light margin around the code, in modules (scanners need one; the terminal's own
  /// background is not to be trusted to give it).
  package static let quietZone = 2

  /// The modules of `text`'s QR code (error correction M), row by row, `true` for dark; `nil`
  /// when libqrencode cannot encode it (too long).
  package static func modules(of text: String) -> [[Bool]]? {
    guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
    defer { QRcode_free(code) }
    let width = Int(code.pointee.width)
    return (0..<width).map { row in (0..<width).map { column in code.pointee.data[row * width + column] & 1 == 1 } }
  }

  /// The lines of `modules` with a quiet zone: light modules are full blocks (drawn in the
  /// terminal's text colour), dark ones blank; `▀` and `▄` where only the upper or the lower of
  /// the two is light. With `colours`, the code is drawn white on black whatever the
  /// terminal's own colours (ANSI escapes), so it scans on light and dark themes alike.
  package static func lines(_ modules: [[Bool]], colours: Bool) -> [String] {
    let width = modules.count + 2 * quietZone
    func light(_ row: Int, _ column: Int) -> Bool {
      let r = row - quietZone
      let c = column - quietZone
      guard r >= 0, r < modules.count, c >= 0, c < modules.count else { return true }
      return !modules[r][c]
    }
    var lines: [String] = []
    var row = 0
    while row < width {
      var line = colours ? "\u{1B}[97;40m" : ""
      for column in 0..<width {
        let upper = light(row, column)
        let lower = row + 1 < width ? light(row + 1, column) : false
        line += upper ? (lower ? "█" : "▀") : (lower ? "▄" : " ")
      }
      if colours { line += "\u{1B}[0m" }
      lines.append(line)
      row += 2
    }
    return lines
  }
}
