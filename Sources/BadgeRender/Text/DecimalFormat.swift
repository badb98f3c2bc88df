/// Fixed-decimal and percentage formatting of `Double`s, without Foundation's `String(format:)`
/// (which pulls in ICU and slows the start of a CLI that status bars spawn every second).
enum DecimalFormat {
  /// `value` with exactly `places` decimals, rounded half away from zero: `1.314352`.
  ///
  /// Not-a-number and infinities, which JSON cannot carry, are written as 0; a value too large
  /// for fixed notation falls back to Swift's own description.
  static func fixed(_ value: Double, places: Int = 6) -> String {
    guard value.isFinite else { return fixed(0, places: places) }
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = (abs(value) * factor).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e15 else { return String(value) }
    let units = UInt64(scaled)
    let divisor = UInt64(factor)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard places > 0 else { return sign + String(units) }
    let fraction = String(units % divisor)
    let padding = String(repeating: "0", count: places - fraction.count)
    return sign + String(units / divisor) + "." + padding + fraction
  }

  /// `fraction` as a whole percentage, rounded half away from zero: 1.3 → 130.
  static func percent(_ fraction: Double) -> Int {
    guard fraction.isFinite else { return 0 }
    return Int((fraction * 100).rounded(.toNearestOrAwayFromZero))
  }
}
