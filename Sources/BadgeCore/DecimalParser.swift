/// Reads and writes decimal integers as ASCII bytes, without going through `String`.
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

  /// Appends the decimal digits of `value` to `buffer`.
  @inline(__always)
  public static func append(_ value: UInt64, to buffer: inout [UInt8]) {
    if value < 10 {
      buffer.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    var v = value
    var n = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      while v > 0 {
        raw[23 - n] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
        v /= 10
        n += 1
      }
      buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[(24 - n)...]))
    }
  }

  /// Appends the decimal digits of a non-negative `value` to `buffer`.
  @inline(__always)
  public static func append(_ value: Int, to buffer: inout [UInt8]) {
    append(UInt64(max(0, value)), to: &buffer)
  }
}
