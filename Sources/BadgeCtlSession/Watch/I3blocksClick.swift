import BadgeCore
import BadgeCtl

/// The mouse button of a click that i3blocks writes to a persistent block's standard input:
/// with `format=json` one JSON object per line holding `"button":N` among the block's other
/// keys, in the raw format a line holding the button number alone.
///
/// Read without Foundation: the watcher starts in every bar, and a click line is small.
enum I3blocksClick {
  /// The left button, which clears the watched channels.
  static let clearButton = 1

  /// The button of one click line, or `nil` when the line names none.
  static func button(in line: some Collection<UInt8>) -> Int? {
    let bytes = Array(line)
    if let whole = number(bytes[...]) { return whole }
    let key = Array("\"button\"".utf8)
    var start = 0
    while let found = firstIndex(of: key, in: bytes, from: start) {
      var rest = bytes[(found + key.count)...].drop(while: isBlank)
      // A key is followed by a colon; the same word inside a string value is not.
      if rest.first == UInt8(ascii: ":") {
        rest = rest.dropFirst().drop(while: isBlank)
        return number(rest.prefix(while: isDigit))
      }
      start = found + 1
    }
    return nil
  }

  /// The decimal number `digits` spells, surrounded by blanks at most.
  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    DecimalParser.parse(digits.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
  }

  private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }
}
