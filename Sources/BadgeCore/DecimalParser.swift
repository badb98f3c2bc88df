/// Reads decimal integers from ASCII bytes, without going through `String`
/// (`DecimalFormatter` writes them).
public enum DecimalParser {
  /// The value of a run of ASCII digits (no sign, no spaces), or `nil` when the bytes are empty,
  /// hold anything else, or exceed `Int.max`.
  @inline(__always)
  public static func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int? {
    var value = 0
    var any = false
    for byte in bytes {
      let digit = Int(byte) &- 0x30
      guard digit >= 0, digit <= 9 else { return nil }
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(digit)
      guard !o1, !o2 else { return nil }
      value = sum
      any = true
    }
    return any ? value : nil
  }
}
