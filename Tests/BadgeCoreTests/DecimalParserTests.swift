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
}
