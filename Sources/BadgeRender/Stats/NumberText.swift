/// Counts written for people: grouped thousands (`12,345`), or compact (`1.2k`, `12k`, `1.2M`)
/// where space is short, and right-aligned in fixed-width fields so that a number counting up
/// never shifts what stands beside it.
public enum NumberText {
  /// `12,345`; negative numbers keep their sign.
  public static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = value < 0 ? "-" : ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(digit)
    }
    return out
  }

  /// At most four characters for any count below 10¹⁵: `999`, `1.2k`, `12k`, `123k`, `1.2M`,
  /// `12M`, `1.2G`, `1.2T`. Digits are cut, never rounded up, so a compact number never claims
  /// more than there is (`1,999` is `1.9k`).
  public static func compact(_ value: Int) -> String {
    let magnitude = value.magnitude
    let sign = value < 0 ? "-" : ""
    guard magnitude >= 1000 else { return sign + String(magnitude) }
    var unit: UInt = 1000
    var suffixes = ["k", "M", "G", "T", "P", "E"][...]
    while magnitude / unit >= 1000, suffixes.count > 1 {
      unit *= 1000
      suffixes = suffixes.dropFirst()
    }
    let whole = magnitude / unit
    if whole >= 10 { return sign + String(whole) + suffixes.first! }
    let tenth = magnitude % unit / (unit / 10)
    return sign + String(whole) + "." + String(tenth) + suffixes.first!
  }

  /// The grouped form when it fits in `width` columns, else the compact one.
  public static func fitting(_ value: Int, width: Int) -> String {
    let full = grouped(value)
    return full.count <= width ? full : compact(value)
  }

  /// `text` right-aligned in a field of `width` columns (wider text is left as it is). Digits,
  /// commas and the unit letters are all one column wide, so counts line up.
  public static func padded(_ text: String, width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
