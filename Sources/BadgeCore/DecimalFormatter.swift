/// Writes decimal integers as ASCII bytes into a buffer, without going through `String`: the
/// reply and event encoders' numbers (`DecimalParser` reads them).
public enum DecimalFormatter {
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
