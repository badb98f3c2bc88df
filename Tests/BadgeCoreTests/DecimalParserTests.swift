import BadgeCore
import Testing

@Suite struct DecimalParserTests {
  @Test(arguments: [
    ("0", 0), ("7", 7), ("42", 42), ("007", 7), ("2147483647", 2_147_483_647),
    ("2147483648", 2_147_483_648), ("9223372036854775807", Int.max), ("000000000000000000000001", 1),
  ])
  func parsesDigits(_ text: String, _ value: Int) {
    #expect(DecimalParser.parse(text.utf8) == value)
  }

  @Test(arguments: [
    "", "-1", "+1", " 1", "1 ", "1a", "a", "1.0", "1_000", "0x10", "/", ":", "١",
    "9223372036854775808", "18446744073709551616", "123456789012345678901234567890",
  ])
  func refusesAnythingElse(_ text: String) {
    #expect(DecimalParser.parse(text.utf8) == nil)
  }

  @Test func parsesRawBytes() {
    let parsed = Array("123".utf8).withUnsafeBytes { DecimalParser.parse($0) }
    #expect(parsed == 123)
    #expect([UInt8]().withUnsafeBytes { DecimalParser.parse($0) } == nil)
  }

  @Test(arguments: [
    (UInt64(0), "0"), (9, "9"), (10, "10"), (99, "99"), (100, "100"), (1_000_000, "1000000"),
    (UInt64(Int.max), "9223372036854775807"), (UInt64.max, "18446744073709551615"),
  ])
  func appendsUnsigned(_ value: UInt64, _ text: String) {
    var buffer: [UInt8] = []
    DecimalParser.append(value, to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == text)
  }

  @Test func appendKeepsWhatIsAlreadyInTheBuffer() {
    var buffer = Array("count=".utf8)
    DecimalParser.append(UInt64(10), to: &buffer)
    buffer.append(UInt8(ascii: " "))
    DecimalParser.append(0, to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "count=10 0")
  }

  @Test func appendMatchesTheStandardLibraryOnEveryDigitCount() {
    var value: UInt64 = 1
    for _ in 0..<20 {
      for candidate in [value - 1, value, value + 1, value &* 9 / 10 * 10 + 9] {
        var buffer: [UInt8] = []
        DecimalParser.append(candidate, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == String(candidate))
      }
      value = value &* 10
    }
  }

  @Test func appendsSignedValues() {
    for (value, text) in [(0, "0"), (5, "5"), (2_147_483_647, "2147483647"), (Int.max, "9223372036854775807")] {
      var buffer: [UInt8] = []
      DecimalParser.append(value, to: &buffer)
      #expect(String(decoding: buffer, as: UTF8.self) == text)
    }
  }

  @Test func negativeValuesAppendAsZero() {
    var buffer: [UInt8] = []
    DecimalParser.append(-5, to: &buffer)
    #expect(buffer == Array("0".utf8))
  }

  @Test func parseReadsWhatAppendWrote() {
    for value in [0, 1, 9, 10, 4096, 2_147_483_647, Int.max] {
      var buffer: [UInt8] = []
      DecimalParser.append(value, to: &buffer)
      #expect(DecimalParser.parse(buffer) == value)
    }
  }
}
