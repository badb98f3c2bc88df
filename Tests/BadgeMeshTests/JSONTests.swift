import BadgeMesh
import Testing

/// The bridge's own JSON: what it accepts, what it refuses and why, and what it writes.
@Suite struct JSONTests {
  static func parse(_ text: String, maxBytes: Int = 4096) throws(JSONError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8), maxBytes: maxBytes)
  }

  static func refusal(_ text: String, maxBytes: Int = 4096) -> String? {
    do {
      _ = try parse(text, maxBytes: maxBytes)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func valuesOfEveryKind() throws {
    let value = try Self.parse(
      #" { "a" : [1, -2, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {} } "#)
    #expect(
      value
        == .object([
          (
            "a",
            .array([.integer(1), .integer(-2), .bool(true), .bool(false), .null, .string("x\"\\/\u{8}\u{C}\n\r\té😀")])
          ),
          ("b", .object([])),
        ]))
    #expect(value["b"] == .object([]))
    #expect(value["missing"] == nil)
  }

  @Test func integersFillSixtyFourBitsExactly() throws {
    #expect(try Self.parse("9223372036854775807") == .integer(.max))
    #expect(try Self.parse("-9223372036854775808") == .integer(.min))
    #expect(Self.refusal("9223372036854775808") == "a number out of range at byte 0")
    #expect(Self.refusal("-9223372036854775809") == "a number out of range at byte 0")
    #expect(Self.refusal("99999999999999999999999") == "a number out of range at byte 19")
  }

  @Test(arguments: [
    ("1.5", "not a whole number at byte 1"),
    ("1e3", "not a whole number at byte 1"),
    ("01", "a number with a leading zero at byte 0"),
    ("-", "expected a digit at byte 1"),
    ("", "expected a value at byte 0"),
    ("{", "expected a key at byte 1"),
    ("{\"a\":1,}", "expected a key at byte 7"),
    ("{\"a\":1 \"b\":2}", "expected ',' or '}' at byte 7"),
    ("{\"a\":1,\"a\":2}", "key 'a' given twice at byte 10"),
    ("[1,2", "unterminated array at byte 4"),
    ("\"abc", "unterminated string at byte 4"),
    ("\"a\u{1}b\"", "a control character in a string at byte 2"),
    ("\"\\x\"", "an unknown escape at byte 3"),
    ("\"\\ud800\"", "a lone surrogate at byte 7"),
    ("\"\\udc00\"", "a lone surrogate at byte 7"),
    ("\"\\u12\"", "a short \\u escape at byte 3"),
    ("tru", "expected true at byte 0"),
    ("nul", "expected null at byte 0"),
    ("{} x", "more after the value at byte 3"),
    ("'a'", "expected a value at byte 0"),
  ])
  func malformedInputIsRefusedWithWhereAndWhy(text: String, reason: String) {
    #expect(Self.refusal(text) == reason)
  }

  @Test func invalidUTF8IsRefused() {
    for bad: [UInt8] in [
      [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
      [0x22, 0xE2, 0x82, 0x22],
    ] {
      #expect(throws: JSONError.self) { try JSONValue.parse(bad, maxBytes: 100) }
    }
  }

  @Test func depthAndSizeAreBounded() throws {
    _ = try Self.parse(String(repeating: "[", count: 8) + String(repeating: "]", count: 8))
    #expect(
      Self.refusal(String(repeating: "[", count: 9) + String(repeating: "]", count: 9))
        == "nested deeper than 8 at byte 8")
    #expect(Self.refusal("[" + String(repeating: "1,", count: 10) + "1]", maxBytes: 16) == "longer than 16 bytes")
    // A megabyte of nesting is refused by its size before any of it is read.
    #expect(Self.refusal(String(repeating: "[", count: 1 << 20)) == "longer than 4096 bytes")
  }

  @Test func encodingEscapesWhatJSONNeedsAndKeepsTheRest() throws {
    let value = JSONValue.object([
      ("text", .string("a\"b\\c\nd\u{1}eé")), ("n", .integer(-3)), ("list", .array([.bool(true), .null])),
    ])
    #expect(value.encoded == #"{"text":"a\"b\\c\nd\u0001eé","n":-3,"list":[true,null]}"#)
    #expect(try Self.parse(value.encoded) == value)
  }
}
