import BadgeCore
import Testing

@Suite struct DecimalFormatterTests {
  @Test(arguments: [
    (UInt64(0), "0"), (9, "9"), (10, "10"), (99, "99"), (100, "100"), (1_000_000, "1000000"),
    (UInt64(Int.max), "9223372036854775807"), (UInt64.max, "18446744073709551615"),
  ])
  func appendsUnsigned(_ value: UInt64, _ text: String) {
    var buffer: [UInt8] = []
    DecimalFormatter.append(value, to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == text)
  }

  @Test func appendKeepsWhatIsAlreadyInTheBuffer() {
    var buffer = Array("count=".utf8)
    DecimalFormatter.append(UInt64(10), to: &buffer)
    buffer.append(UInt8(ascii: " "))
    DecimalFormatter.append(0, to: &buffer)
    #expect(String(decoding: buffer, as: UTF8.self) == "count=10 0")
  }

  @Test func appendMatchesTheStandardLibraryOnEveryDigitCount() {
    var value: UInt64 = 1
    for _ in 0..<20 {
      for candidate in [value - 1, value, value + 1, value &* 9 / 10 * 10 + 9] {
        var buffer: [UInt8] = []
        DecimalFormatter.append(candidate, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == String(candidate))
      }
      value = value &* 10
    }
  }

  @Test func appendsSignedValues() {
    for (value, text) in [(0, "0"), (5, "5"), (2_147_483_647, "2147483647"), (Int.max, "9223372036854775807")] {
      var buffer: [UInt8] = []
      DecimalFormatter.append(value, to: &buffer)
      #expect(String(decoding: buffer, as: UTF8.self) == text)
    }
  }

  @Test func negativeValuesAppendAsZero() {
    var buffer: [UInt8] = []
    DecimalFormatter.append(-5, to: &buffer)
    #expect(buffer == Array("0".utf8))
  }

  @Test func parseReadsWhatAppendWrote() {
    for value in [0, 1, 9, 10, 4096, 2_147_483_647, Int.max] {
      var buffer: [UInt8] = []
      DecimalFormatter.append(value, to: &buffer)
      #expect(DecimalParser.parse(buffer) == value)
    }
  }
}
