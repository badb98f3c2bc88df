/// Bars and column charts from Unicode block elements, at eighth-of-a-cell precision.
public enum BlockGlyphs {
  /// Left-aligned partial blocks, one eighth to seven eighths of a cell wide.
  static let horizontalEighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
  /// Bottom-aligned blocks, one eighth to a full cell high.
  static let verticalEighths: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// A horizontal bar `fraction` (0…1) of `width` cells long, to the nearest eighth of a cell,
  /// padded with spaces to exactly `width` cells. Anything above 0 shows at least `▏`, as a
  /// column chart shows at least `▁`.
  public static func bar(_ fraction: Double, width: Int) -> String {
    guard width > 0 else { return "" }
    let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    let eighths = clamped > 0 ? max(1, Int((clamped * Double(width * 8)).rounded())) : 0
    var out = String(repeating: "█", count: eighths / 8)
    if eighths % 8 > 0 { out.append(horizontalEighths[eighths % 8 - 1]) }
    return out + String(repeating: " ", count: width - (eighths + 7) / 8)
  }

  /// One column per value, each `value / maximum` of a cell high to the nearest eighth: a
  /// space for nothing, `▁` for the least above nothing, `█` for `maximum`. With a maximum of
  /// 0 every column is empty. Each column is `cellWidth` cells wide, its last cell a gap when
  /// it is wider than two, so a week spreads over the room a bar has.
  public static func columns(_ values: [Double], maximum: Double, cellWidth: Int = 1) -> String {
    let filled = cellWidth > 2 ? cellWidth - 1 : max(cellWidth, 1)
    let gap = String(repeating: " ", count: max(cellWidth, 1) - filled)
    var out = ""
    for value in values {
      guard maximum > 0, value > 0, value.isFinite else {
        out += String(repeating: " ", count: filled) + gap
        continue
      }
      let level = min(8, max(1, Int((value / maximum * 8).rounded())))
      out += String(repeating: verticalEighths[level - 1], count: filled) + gap
    }
    return out
  }

  /// `values` summed into at most `width` columns of equal spans of consecutive values (the last
  /// span may be shorter), so a year of days fits a terminal line. Returned as they are when
  /// they fit.
  public static func buckets(_ values: [Int], width: Int) -> [Int] {
    guard width > 0, values.count > width else { return values }
    let span = (values.count + width - 1) / width
    return stride(from: 0, to: values.count, by: span).map { start in
      values[start..<min(start + span, values.count)].reduce(0) {
        $0.addingReportingOverflow($1).overflow ? .max : $0 + $1
      }
    }
  }
}
