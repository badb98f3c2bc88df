/// A value of a response's data: an atom (numbers, flags, sequence sets and `BODY[…]` names
/// included), a string (quoted or literal), NIL or a parenthesised list.
enum ImapValue: Equatable {
  case atom(String)
  case string([UInt8])
  case nilValue
  case list([ImapValue])

  /// An atom's or a string's text.
  var text: String? {
    switch self {
    case .atom(let text): return text
    case .string(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .nilValue, .list: return nil
    }
  }

  /// An astring's bytes (a mailbox name: quoted, a literal, or an atom such as NIL).
  var bytes: [UInt8]? {
    switch self {
    case .atom(let text): return Array(text.utf8)
    case .string(let bytes): return bytes
    case .nilValue: return Array("NIL".utf8)
    case .list: return nil
    }
  }
}

/// Reads values from one response's bytes (literals inline after their `{n}\r\n`). Lists nest at
/// most `maxDepth` deep: a deeper one is malformed, so no response can exhaust the stack.
struct ImapLexer {
  static let maxDepth = 32
  private let bytes: [UInt8]
  private var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  /// Steps over `byte` when it is next.
  @discardableResult mutating func skip(_ byte: UInt8) -> Bool {
    guard current == byte else { return false }
    position += 1
    return true
  }

  /// The bytes up to the next space or line end (a tag, `*`, `+`, a keyword); nil when none.
  mutating func word() -> String? {
    let start = position
    while let byte = current, byte != 0x20, byte != 0x0D, byte != 0x0A { position += 1 }
    return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
  }

  /// The rest of the line (human-readable text), without its line end.
  mutating func text() -> String {
    let start = position
    while let byte = current, byte != 0x0D, byte != 0x0A { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// The next value, or nil at a line end or when it is malformed.
  mutating func value(depth: Int = 0) -> ImapValue? {
    guard let byte = current else { return nil }
    switch byte {
    case UInt8(ascii: "("):
      guard depth < Self.maxDepth else { return nil }
      position += 1
      var items: [ImapValue] = []
      while true {
        while skip(0x20) {}
        if skip(UInt8(ascii: ")")) { return .list(items) }
        guard let item = value(depth: depth + 1) else { return nil }
        items.append(item)
      }
    case UInt8(ascii: "\""): return quoted()
    case UInt8(ascii: "{"): return literal()
    case 0x20, 0x0D, 0x0A, UInt8(ascii: ")"): return nil
    default: return atom()
    }
  }

  private mutating func quoted() -> ImapValue? {
    position += 1
    var text: [UInt8] = []
    while let byte = current {
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return .string(text)
      case UInt8(ascii: "\\"):
        guard let escaped = current else { return nil }
        text.append(escaped)
        position += 1
      case 0x0D, 0x0A: return nil
      default: text.append(byte)
      }
    }
    return nil
  }

  /// `{n}\r\n` and n bytes (the parser framed them, so they are all here).
  private mutating func literal() -> ImapValue? {
    position += 1
    var count = 0
    while let byte = current, let digit = ImapResponseReader.digit(byte), count < 1 << 40 {
      count = count * 10 + digit
      position += 1
    }
    skip(UInt8(ascii: "+"))
    guard skip(UInt8(ascii: "}")) else { return nil }
    skip(0x0D)
    guard skip(0x0A), count <= bytes.count - position else { return nil }
    defer { position += count }
    return .string(Array(bytes[position..<position + count]))
  }

  /// An atom; a `[` in it runs to its `]` (spaces and lists included: `BODY[HEADER.FIELDS (A B)]`).
  private mutating func atom() -> ImapValue? {
    let start = position
    var brackets = 0
    while let byte = current {
      if byte == 0x0D || byte == 0x0A { break }
      if brackets == 0,
        [0x20, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\""), UInt8(ascii: "{")].contains(byte)
      {
        break
      }
      if byte == UInt8(ascii: "[") { brackets += 1 }
      if byte == UInt8(ascii: "]"), brackets > 0 { brackets -= 1 }
      position += 1
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    return text.uppercased() == "NIL" ? .nilValue : .atom(text)
  }
}
