import BadgeCore

/// A compact byte form of D-Bus message bodies, read into the `BusValue` trees that
/// BadgeSystem's `BusMessage.arguments()` makes of a real message: sd-bus has no public call
/// that parses a message from bytes, so the fuzzer writes bodies in this form instead.
///
/// A body is its signature, then its values:
/// - the signature: a length byte (taken modulo 32), then that many bytes, each taken modulo
///   the length of `alphabet` into a D-Bus type code. A signature sd-bus would refuse
///   (unbalanced, a dict entry outside an array, a key that is not basic, nesting past 32)
///   makes no body: sd-bus delivers no such message.
/// - each value, as its type says: `y` and `b` one byte (`b` is its low bit), `n` `q` two, `i`
///   `u` `h` four, `x` `t` `d` eight, little-endian (`d` as the bits of a double); `s` `o` `g`
///   a length byte and the bytes (cut at a NUL, invalid UTF-8 replaced, as a C string read by
///   Swift); `v` a signature (as above, one complete type) and its value; an array a count
///   byte and that many elements; a struct its members. Input that ends inside a value makes
///   no body.
///
/// As `BusMessage` reads them: integers become `.signed` or `.unsigned`, `s` `o` `g` `.string`,
/// a variant its value, an array of dict entries `.dictionary` (entries whose key is not a
/// string dropped), other arrays and structs `.array`, `h` `.other("h")`.
struct BusBytes {
  private var bytes: ArraySlice<UInt8>

  /// The D-Bus type codes a signature byte maps to.
  static let alphabet = Array("ybnqiuxtdsoghva(){}".utf8)
  static let basicCodes = Set("ybnqiuxtdsogh".utf8)
  /// The D-Bus specification's limits on nesting: arrays and structs 32 deep each in a
  /// signature, and values 64 deep in all, variants included.
  static let maxDepth = 32
  static let maxValueDepth = 64

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
  }

  var isEmpty: Bool { bytes.isEmpty }

  mutating func byte() -> UInt8? { bytes.popFirst() }

  /// The next body: its signature and its values; `nil` when the input has none left or holds
  /// one sd-bus would not deliver.
  mutating func body() -> (signature: String, values: [BusValue])? {
    guard let (signature, types) = signature() else { return nil }
    var values: [BusValue] = []
    for type in types {
      guard let value = value(of: type, depth: 0) else { return nil }
      values.append(value)
    }
    return (signature, values)
  }

  // MARK: - Signatures

  indirect enum BusType {
    case basic(UInt8)
    case variant
    case array(BusType)
    case dictionary(key: UInt8, value: BusType)
    case structure([BusType])
  }

  private mutating func signature() -> (String, [BusType])? {
    guard let length = byte() else { return nil }
    var codes: [UInt8] = []
    for _ in 0..<(Int(length) % 32) {
      guard let code = byte() else { return nil }
      codes.append(Self.alphabet[Int(code) % Self.alphabet.count])
    }
    var rest = codes[...]
    var types: [BusType] = []
    while !rest.isEmpty {
      guard let type = Self.completeType(&rest, arrays: 0, structs: 0) else { return nil }
      types.append(type)
    }
    return (String(decoding: codes, as: UTF8.self), types)
  }

  private static func isBasic(_ code: UInt8) -> Bool { basicCodes.contains(code) }

  /// One complete type from the front of `codes`, as the D-Bus specification allows it.
  private static func completeType(_ codes: inout ArraySlice<UInt8>, arrays: Int, structs: Int) -> BusType? {
    guard let code = codes.popFirst() else { return nil }
    switch code {
    case _ where isBasic(code): return .basic(code)
    case UInt8(ascii: "v"): return .variant
    case UInt8(ascii: "a"):
      guard arrays < maxDepth else { return nil }
      if codes.first == UInt8(ascii: "{") {
        codes.removeFirst()
        guard let key = codes.popFirst(), isBasic(key),
          let value = completeType(&codes, arrays: arrays + 1, structs: structs + 1),
          codes.popFirst() == UInt8(ascii: "}")
        else { return nil }
        return .dictionary(key: key, value: value)
      }
      return completeType(&codes, arrays: arrays + 1, structs: structs).map { .array($0) }
    case UInt8(ascii: "("):
      guard structs < maxDepth else { return nil }
      var members: [BusType] = []
      while codes.first != UInt8(ascii: ")") {
        guard let member = completeType(&codes, arrays: arrays, structs: structs + 1) else { return nil }
        members.append(member)
      }
      codes.removeFirst()
      return members.isEmpty ? nil : .structure(members)
    default:
      return nil  // ")", "{", "}" out of place
    }
  }

  // MARK: - Values

  private mutating func value(of type: BusType, depth: Int) -> BusValue? {
    guard depth < Self.maxValueDepth else { return nil }
    switch type {
    case .basic(let code): return basic(code)
    case .variant:
      // One complete type; `BusMessage` unwraps a variant.
      guard let (_, types) = signature(), types.count == 1 else { return nil }
      return value(of: types[0], depth: depth + 1)
    case .array(let element):
      guard let count = byte() else { return nil }
      var items: [BusValue] = []
      for _ in 0..<count {
        guard let item = value(of: element, depth: depth + 1) else { return nil }
        items.append(item)
      }
      return .array(items)
    case .dictionary(let key, let valueType):
      guard let count = byte() else { return nil }
      var entries: [BusProperty] = []
      for _ in 0..<count {
        guard let keyValue = basic(key), let entry = value(of: valueType, depth: depth + 1) else { return nil }
        if case .string(let text) = keyValue { entries.append(BusProperty(key: text, value: entry)) }
      }
      return .dictionary(entries)
    case .structure(let members):
      var items: [BusValue] = []
      for member in members {
        guard let item = value(of: member, depth: depth + 1) else { return nil }
        items.append(item)
      }
      return .array(items)
    }
  }

  private mutating func basic(_ code: UInt8) -> BusValue? {
    switch code {
    case UInt8(ascii: "y"): return little(1).map { .unsigned($0) }
    case UInt8(ascii: "b"): return little(1).map { .boolean($0 & 1 == 1) }
    case UInt8(ascii: "n"): return little(2).map { .signed(Int64(Int16(truncatingIfNeeded: $0))) }
    case UInt8(ascii: "q"): return little(2).map { .unsigned($0) }
    case UInt8(ascii: "i"): return little(4).map { .signed(Int64(Int32(truncatingIfNeeded: $0))) }
    case UInt8(ascii: "u"): return little(4).map { .unsigned($0) }
    case UInt8(ascii: "h"): return little(4).map { _ in .other("h") }
    case UInt8(ascii: "x"): return little(8).map { .signed(Int64(bitPattern: $0)) }
    case UInt8(ascii: "t"): return little(8).map { .unsigned($0) }
    case UInt8(ascii: "d"): return little(8).map { .double(Double(bitPattern: $0)) }
    default:  // s, o, g
      guard let length = byte(), bytes.count >= Int(length) else { return nil }
      let text = bytes.prefix(Int(length)).prefix { $0 != 0 }
      bytes = bytes.dropFirst(Int(length))
      return .string(String(decoding: text, as: UTF8.self))
    }
  }

  /// A little-endian unsigned number of `size` bytes.
  private mutating func little(_ size: Int) -> UInt64? {
    guard bytes.count >= size else { return nil }
    let value = bytes.prefix(size).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    bytes = bytes.dropFirst(size)
    return value
  }
}
