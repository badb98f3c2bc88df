import BadgeCore
import CSystemd
import Glibc

/// A received bus message, valid during the handler it is passed to.
public struct BusMessage {
  let raw: OpaquePointer

  init(raw: OpaquePointer) { self.raw = raw }

  /// The kind of message.
  public enum Kind: Sendable { case methodCall, methodReturn, error, signal, other }

  public var kind: Kind {
    var type: UInt8 = 0
    guard sd_bus_message_get_type(raw, &type) >= 0 else { return .other }
    switch CInt(type) {
    case CInt(SD_BUS_MESSAGE_METHOD_CALL): return .methodCall
    case CInt(SD_BUS_MESSAGE_METHOD_RETURN): return .methodReturn
    case CInt(SD_BUS_MESSAGE_METHOD_ERROR): return .error
    case CInt(SD_BUS_MESSAGE_SIGNAL): return .signal
    default: return .other
    }
  }

  public var sender: String? { string(sd_bus_message_get_sender(raw)) }
  public var destination: String? { string(sd_bus_message_get_destination(raw)) }
  public var path: String? { string(sd_bus_message_get_path(raw)) }
  public var interface: String? { string(sd_bus_message_get_interface(raw)) }
  public var member: String? { string(sd_bus_message_get_member(raw)) }
  /// The body's signature, e.g. `sa{sv}`.
  public var signature: String { string(sd_bus_message_get_signature(raw, 1)) ?? "" }

  /// The message's serial number (its cookie).
  public var serial: UInt64? {
    var cookie: UInt64 = 0
    return sd_bus_message_get_cookie(raw, &cookie) >= 0 ? cookie : nil
  }

  /// The serial of the call a return or error answers.
  public var replySerial: UInt64? {
    var cookie: UInt64 = 0
    return sd_bus_message_get_reply_cookie(raw, &cookie) >= 0 ? cookie : nil
  }

  /// Whether this is the signal sd-bus makes up when the connection to the bus is lost.
  public var isDisconnected: Bool {
    sd_bus_message_is_signal(raw, "org.freedesktop.DBus.Local", "Disconnected") > 0
  }

  /// The error name of an error reply.
  public var errorName: String? {
    guard let error = sd_bus_message_get_error(raw) else { return nil }
    return string(error.pointee.name)
  }

  /// Every argument of the body, read from the start: variants are unwrapped, arrays of
  /// dict entries with string keys become `.dictionary`, other arrays and structs `.array`.
  public func arguments() -> [BusValue] {
    _ = sd_bus_message_rewind(raw, 1)
    var values: [BusValue] = []
    while let value = readValue() { values.append(value) }
    return values
  }

  /// Reads the next complete value, or `nil` at the end of the current container or on error.
  private func readValue() -> BusValue? {
    var type: CChar = 0
    var contents: UnsafePointer<CChar>?
    guard sd_bus_message_peek_type(raw, &type, &contents) > 0 else { return nil }
    let code = UInt8(bitPattern: type)
    switch code {
    case UInt8(ascii: "a"):
      let element = contents.map { String(cString: $0) } ?? ""
      guard sd_bus_message_enter_container(raw, type, contents) >= 0 else { return nil }
      defer { _ = sd_bus_message_exit_container(raw) }
      if element.hasPrefix("{") {
        let inner = String(element.dropFirst().dropLast())
        var entries: [BusProperty] = []
        while sd_bus_message_enter_container(raw, CChar(UInt8(ascii: "e")), inner) > 0 {
          let key = readValue()
          let value = readValue() ?? .other(inner)
          _ = sd_bus_message_exit_container(raw)
          if case .string(let text) = key { entries.append(BusProperty(key: text, value: value)) }
        }
        return .dictionary(entries)
      }
      var items: [BusValue] = []
      while let item = readValue() { items.append(item) }
      return .array(items)
    case UInt8(ascii: "v"), UInt8(ascii: "r"):
      guard sd_bus_message_enter_container(raw, type, contents) >= 0 else { return nil }
      defer { _ = sd_bus_message_exit_container(raw) }
      if code == UInt8(ascii: "v") { return readValue() ?? .other("v") }
      var items: [BusValue] = []
      while let item = readValue() { items.append(item) }
      return .array(items)
    default:
      return readBasic(code, type)
    }
  }

  private func readBasic(_ code: UInt8, _ type: CChar) -> BusValue? {
    func read<T: BitwiseCopyable>(_ initial: T) -> T? {
      var value = initial
      return sd_bus_message_read_basic(raw, type, &value) >= 0 ? value : nil
    }
    switch code {
    case UInt8(ascii: "y"): return read(UInt8(0)).map { .unsigned(UInt64($0)) }
    case UInt8(ascii: "q"): return read(UInt16(0)).map { .unsigned(UInt64($0)) }
    case UInt8(ascii: "u"): return read(UInt32(0)).map { .unsigned(UInt64($0)) }
    case UInt8(ascii: "t"): return read(UInt64(0)).map { .unsigned($0) }
    case UInt8(ascii: "n"): return read(Int16(0)).map { .signed(Int64($0)) }
    case UInt8(ascii: "i"): return read(Int32(0)).map { .signed(Int64($0)) }
    case UInt8(ascii: "x"): return read(Int64(0)).map { .signed($0) }
    case UInt8(ascii: "b"): return read(CInt(0)).map { .boolean($0 != 0) }
    case UInt8(ascii: "d"): return read(Double(0)).map { .double($0) }
    case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
      var text: UnsafePointer<CChar>?
      guard sd_bus_message_read_basic(raw, type, &text) >= 0 else { return nil }
      return .string(text.map { String(cString: $0) } ?? "")
    default:
      let signature = String(decoding: [code], as: UTF8.self)
      guard sd_bus_message_skip(raw, signature) >= 0 else { return nil }
      return .other(signature)
    }
  }

  private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}

/// Appends arguments to a message being built, with the non-variadic sd-bus calls.
public struct BusMessageBuilder {
  let raw: OpaquePointer

  /// Appends a string (`s`).
  public mutating func append(string: String) throws(SystemError) {
    try append(.string(string))
  }

  /// Appends a `u`.
  public mutating func append(uint32 value: UInt32) throws(SystemError) {
    try append(.uint32(value))
  }

  /// Appends an array of strings (`as`).
  public mutating func append(strings: [String]) throws(SystemError) {
    try append(.array(element: "s", strings.map { .string($0) }))
  }

  /// Appends a dictionary of variants (`a{sv}`); values are `x`, `t`, `b`, `d` or `s`.
  public mutating func append(properties: [BusProperty]) throws(SystemError) {
    var entries: [BusArgument] = []
    for property in properties {
      entries.append(.dictEntry(.string(property.key), .variant(try Self.basicArgument(property.value))))
    }
    try append(.array(element: "{sv}", entries))
  }

  /// A read value as the basic argument of its widest type (`x`, `t`, `b`, `d`, `s`).
  private static func basicArgument(_ value: BusValue) throws(SystemError) -> BusArgument {
    switch value {
    case .signed(let number): return .int64(number)
    case .unsigned(let number): return .uint64(number)
    case .boolean(let flag): return .boolean(flag)
    case .double(let number): return .double(number)
    case .string(let text): return .string(text)
    case .array, .dictionary, .other:
      throw SystemError("append a value of type \(value.typeName)", Errno(rawValue: EINVAL))
    }
  }
}
