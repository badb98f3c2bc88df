/// Writes decimal integers as ASCII bytes into a buffer, without going through `String`: the
/// reply and event encoders' numbers (`DecimalParser` reads them). The digits are written by
/// `ByteWriter.write(decimal:)`, the one place that makes them.
public enum DecimalFormatter {
  /// The most digits a number takes (`UInt64.max`).
  public static let maxDigits = 20

  /// Appends the decimal digits of `value` to `buffer`.
  @inlinable @inline(__always)
  public static func append(_ value: UInt64, to buffer: inout [UInt8]) {
    buffer.appendWritten(maxLength: maxDigits) { $0.write(decimal: value) }
  }

  /// Appends the decimal digits of a non-negative `value` to `buffer`.
  @inlinable @inline(__always)
  public static func append(_ value: Int, to buffer: inout [UInt8]) {
    buffer.appendWritten(maxLength: maxDigits) { $0.write(decimal: value) }
  }
}
