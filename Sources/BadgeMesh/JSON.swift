import BadgeCore

/// The JSON the bridge reads and writes: objects, arrays, strings, whole numbers, booleans and
/// null. Numbers with a fraction or an exponent are refused, since no payload has one.
///
/// A parser of its own rather than Foundation's `JSONDecoder`: what the broker delivers is
/// untrusted, and this one is bounded by construction (a byte limit checked before anything
/// is read, a depth limit, integers that must fit 64 bits exactly, duplicate keys refused),
/// refuses rather than coerces, and keeps the pure module and its fuzz target free of
/// Foundation.
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case string(String)
  case array([JSONValue])
  /// Members in the order they were written (encoding keeps this order).
  case object([(key: String, value: JSONValue)])

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.integer(let x), .integer(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// The value of member `key` of an object; `nil` for a missing key or a value that is not
  /// an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The members' keys of an object, else none.
  public var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.key)
  }
}

/// Why bytes were not taken as JSON.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

extension JSONValue {
  /// The most nested a document may be: an object in an array in an object is depth 3.
  public static let maxDepth = 8

  /// Parses exactly one JSON value (with blanks around it) from `bytes`.
  ///
  /// - Parameter maxBytes: longer input is refused before any of it is read.
  public static func parse(_ bytes: some Collection<UInt8>, maxBytes: Int) throws(JSONError) -> JSONValue {
    guard bytes.count <= maxBytes else { throw JSONError("longer than \(maxBytes) bytes") }
    var parser = JSONParser(Array(bytes))
    parser.skipBlanks()
    let value = try parser.value(depth: 1)
    parser.skipBlanks()
    guard parser.atEnd else { throw JSONError("more after the value at byte \(parser.position)") }
    return value
  }

  /// The value as compact JSON text, members in their order.
  public var encoded: String {
    var out = ""
    encode(into: &out)
    return out
  }

  private func encode(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .integer(let number): out += String(number)
    case .string(let text): out += JSONString.quoted(text)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        item.encode(into: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        out += JSONString.quoted(member.key)
        out += ":"
        member.value.encode(into: &out)
      }
      out += "}"
    }
  }
}

/// A recursive-descent reader over the bytes of one document.
private struct JSONParser {
  let bytes: [UInt8]
  private(set) var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { position == bytes.count }

  mutating func skipBlanks() {
    while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
  }

  private func fail(_ what: String) -> JSONError { JSONError("\(what) at byte \(position)") }

  mutating func value(depth: Int) throws(JSONError) -> JSONValue {
    guard position < bytes.count else { throw fail("expected a value") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try integer())
    default: throw fail("expected a value")
    }
  }

  private mutating func literal(_ word: String) throws(JSONError) {
    let text = Array(word.utf8)
    guard bytes.count - position >= text.count, bytes[position..<position + text.count].elementsEqual(text) else {
      throw fail("expected \(word)")
    }
    position += text.count
  }

  private mutating func object(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= JSONValue.maxDepth else { throw fail("nested deeper than \(JSONValue.maxDepth)") }
    position += 1
    var members: [(key: String, value: JSONValue)] = []
    var keys = Set<String>()
    skipBlanks()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
    while true {
      skipBlanks()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a key") }
      let key = try string()
      guard keys.insert(key).inserted else { throw fail("key '\(key)' given twice") }
      skipBlanks()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':'") }
      position += 1
      skipBlanks()
      members.append((key, try value(depth: depth + 1)))
      skipBlanks()
      guard position < bytes.count else { throw fail("unterminated object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      } else {
        throw fail("expected ',' or '}'")
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONError) -> JSONValue {
    guard depth <= JSONValue.maxDepth else { throw fail("nested deeper than \(JSONValue.maxDepth)") }
    position += 1
    var items: [JSONValue] = []
    skipBlanks()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(items)
    }
    while true {
      skipBlanks()
      items.append(try value(depth: depth + 1))
      skipBlanks()
      guard position < bytes.count else { throw fail("unterminated array") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(items)
      } else {
        throw fail("expected ',' or ']'")
      }
    }
  }

  /// A whole number: `-?(0|[1-9][0-9]*)` that fits 64 bits; a fraction or exponent is refused.
  private mutating func integer() throws(JSONError) -> Int64 {
    let start = position
    let negative = bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    guard position < bytes.count, bytes[position] >= 0x30 && bytes[position] <= 0x39 else {
      throw fail("expected a digit")
    }
    if bytes[position] == 0x30, position + 1 < bytes.count, bytes[position + 1] >= 0x30 && bytes[position + 1] <= 0x39 {
      throw fail("a number with a leading zero")
    }
    var magnitude: UInt64 = 0
    while position < bytes.count, bytes[position] >= 0x30 && bytes[position] <= 0x39 {
      let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - 0x30))
      guard !overflow1 && !overflow2 else { throw fail("a number out of range") }
      magnitude = sum
      position += 1
    }
    if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
      throw fail("not a whole number")
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        position = start
        throw fail("a number out of range")
      }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else {
      position = start
      throw fail("a number out of range")
    }
    return Int64(magnitude)
  }

  /// A string: valid UTF-8, no raw control characters, escapes as RFC 8259 gives them, and
  /// `\u` surrogates only in pairs.
  private mutating func string() throws(JSONError) -> String {
    position += 1
    var scalars = String.UnicodeScalarView()
    while true {
      guard position < bytes.count else { throw fail("unterminated string") }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(scalars)
      } else if byte == UInt8(ascii: "\\") {
        position += 1
        guard position < bytes.count else { throw fail("unterminated escape") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            else { throw fail("a lone surrogate") }
            position += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(code) {
            throw fail("a lone surrogate")
          }
          scalars.append(Unicode.Scalar(code)!)
        default: throw fail("an unknown escape")
        }
      } else if byte < 0x20 {
        throw fail("a control character in a string")
      } else if byte < 0x80 {
        scalars.append(Unicode.Scalar(byte))
        position += 1
      } else {
        scalars.append(try utf8Scalar())
      }
    }
  }

  private mutating func hex4() throws(JSONError) -> UInt32 {
    guard bytes.count - position >= 4 else { throw fail("a short \\u escape") }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw fail("a bad \\u escape")
      }
      code = code << 4 | digit
      position += 1
    }
    return code
  }

  /// One multi-byte UTF-8 sequence, refusing overlong forms, surrogates and values past U+10FFFF.
  private mutating func utf8Scalar() throws(JSONError) -> Unicode.Scalar {
    let lead = bytes[position]
    let length: Int
    var code: UInt32
    switch lead {
    case 0xC2...0xDF:
      length = 2
      code = UInt32(lead & 0x1F)
    case 0xE0...0xEF:
      length = 3
      code = UInt32(lead & 0x0F)
    case 0xF0...0xF4:
      length = 4
      code = UInt32(lead & 0x07)
    default: throw fail("invalid UTF-8")
    }
    guard bytes.count - position >= length else { throw fail("invalid UTF-8") }
    for offset in 1..<length {
      let byte = bytes[position + offset]
      guard byte & 0xC0 == 0x80 else { throw fail("invalid UTF-8") }
      code = code << 6 | UInt32(byte & 0x3F)
    }
    let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard code >= smallest, let scalar = Unicode.Scalar(code) else { throw fail("invalid UTF-8") }
    position += length
    return scalar
  }
}
