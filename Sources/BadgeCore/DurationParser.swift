/// Durations as people write them: a whole number and a unit, `1500ms`, `90s`, `30m`, `2h`.
/// One parser for the protocol's `DND on <duration>` and badgectl's arguments.
public enum DurationParser {
  /// The units, with their length in milliseconds; `ms` before `m` and `s` so it is tried first.
  static let units: [(suffix: String, ms: Int)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]

  /// The milliseconds `text` stands for, or `nil` when it is not a number with a unit or is 0.
  /// The value may be larger than any limit; the caller checks its range.
  public static func milliseconds(_ text: Substring) -> Int? {
    for unit in units where text.hasSuffix(unit.suffix) {
      let digits = text.dropLast(unit.suffix.count)
      guard let value = DecimalParser.parse(digits.utf8), value > 0 else { return nil }
      let (product, overflow) = value.multipliedReportingOverflow(by: unit.ms)
      return overflow ? Int.max : product
    }
    return nil
  }

  /// `milliseconds(_:)` for a `String`.
  public static func milliseconds(_ text: String) -> Int? { milliseconds(text[...]) }
}
