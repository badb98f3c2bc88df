import CSystemd
import Glibc

/// A value to append to a message, with its D-Bus type: what exported objects answer and what
/// signals carry (`a(iiay)` pixmaps, `a{sv}` property maps, menu layouts), built from the
/// non-variadic sd-bus calls since Swift cannot call `sd_bus_message_append`.
public indirect enum BusArgument: Sendable, Equatable {
  case byte(UInt8)
  case boolean(Bool)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// `ay`, appended in one call (`sd_bus_message_append_array`), so a pixmap costs no loop.
  case bytes([UInt8])
  /// `a<element>`, where `element` is the signature of each item (`(iiay)`, `{sv}`, `v`): an
  /// empty array still has its element type.
  case array(element: String, [BusArgument])
  /// `(…)`.
  case structure([BusArgument])
  /// `{kv}`, only inside an array.
  case dictEntry(BusArgument, BusArgument)
  /// `v`, carrying its value's own signature.
  case variant(BusArgument)

  /// The argument's D-Bus signature: `a(iiay)`, `(ia{sv}av)`, ….
  public var signature: String {
    switch self {
    case .byte: return "y"
    case .boolean: return "b"
    case .int32: return "i"
    case .uint32: return "u"
    case .int64: return "x"
    case .uint64: return "t"
    case .double: return "d"
    case .string: return "s"
    case .objectPath: return "o"
    case .signature: return "g"
    case .bytes: return "ay"
    case .array(let element, _): return "a" + element
    case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
    case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
    case .variant: return "v"
    }
  }

  /// The single complete types `signature` is made of, in order (`ia{sv}(ii)` → `i`, `a{sv}`,
  /// `(ii)`): the arguments of a method or signal, one per `<arg>` in introspection XML.
  public static func completeTypes(of signature: String) -> [String] {
    var types: [String] = []
    var current = ""
    var depth = 0
    for character in signature {
      current.append(character)
      switch character {
      case "(", "{": depth += 1
      case ")", "}": depth -= 1
      case "a": continue  // an array's element follows
      default: break
      }
      if depth == 0 {
        types.append(current)
        current = ""
      }
    }
    return types
  }
}

extension BusMessageBuilder {
  /// Appends `argument` with its signature; a nested array whose items do not match its
  /// element type is refused by sd-bus (`EINVAL`).
  public mutating func append(_ argument: BusArgument) throws(SystemError) {
    func basic<T: BitwiseCopyable>(_ code: String, _ value: T) throws(SystemError) {
      var value = value
      try checkSD(sd_bus_message_append_basic(raw, CChar(code.utf8.first!), &value), "append a '\(code)'")
    }
    func text(_ code: String, _ value: String) throws(SystemError) {
      try checkSD(sd_bus_message_append_basic(raw, CChar(code.utf8.first!), value), "append a '\(code)'")
    }
    switch argument {
    case .byte(let value): try basic("y", value)
    case .boolean(let value): try basic("b", CInt(value ? 1 : 0))
    case .int32(let value): try basic("i", value)
    case .uint32(let value): try basic("u", value)
    case .int64(let value): try basic("x", value)
    case .uint64(let value): try basic("t", value)
    case .double(let value): try basic("d", value)
    case .string(let value): try text("s", value)
    case .objectPath(let value): try text("o", value)
    case .signature(let value): try text("g", value)
    case .bytes(let bytes):
      let result = bytes.withUnsafeBytes {
        sd_bus_message_append_array(raw, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count)
      }
      try checkSD(result, "append a byte array")
    case .array(let element, let items):
      try container("a", element) { (builder) throws(SystemError) in
        for item in items { try builder.append(item) }
      }
    case .structure(let fields):
      try container("r", String(argument.signature.dropFirst().dropLast())) { (builder) throws(SystemError) in
        for field in fields { try builder.append(field) }
      }
    case .dictEntry(let key, let value):
      try container("e", key.signature + value.signature) { (builder) throws(SystemError) in
        try builder.append(key)
        try builder.append(value)
      }
    case .variant(let value):
      try container("v", value.signature) { (builder) throws(SystemError) in try builder.append(value) }
    }
  }

  private mutating func container(
    _ type: Unicode.Scalar, _ contents: String, _ body: (inout BusMessageBuilder) throws(SystemError) -> Void
  ) throws(SystemError) {
    try checkSD(
      sd_bus_message_open_container(raw, CChar(UInt8(ascii: type)), contents), "open a '\(type)' of '\(contents)'")
    try body(&self)
    try checkSD(sd_bus_message_close_container(raw), "close a '\(type)' of '\(contents)'")
  }
}
