/// A value read from a D-Bus message, as far as the bridges look at it.
///
/// The system module turns sd-bus messages into these (and builds messages from them), so that
/// everything the bridges decide (which channel, which count) is pure and tested without a bus.
/// They live here, below both, because both must know them and neither may know the other.
public enum BusValue: Equatable, Sendable {
  /// Any signed integer type (`x`, `i`, `n`).
  case signed(Int64)
  /// Any unsigned integer type (`t`, `u`, `q`, `y`).
  case unsigned(UInt64)
  case boolean(Bool)
  /// `s`, `o` and `g`.
  case string(String)
  case double(Double)
  /// An array or struct.
  indirect case array([BusValue])
  /// An array of dict entries with string keys (`a{sv}`, `a{ss}`, …).
  indirect case dictionary([BusProperty])
  /// A type the bridges do not read, with its D-Bus signature.
  case other(String)

  /// The value as a count: integers clamped to `0 ... limit`; `nil` for anything else.
  public func clampedCount(limit: Int) -> Int? {
    switch self {
    case .signed(let value): return value <= 0 ? 0 : (value >= Int64(limit) ? limit : Int(value))
    case .unsigned(let value): return value >= UInt64(limit) ? limit : Int(value)
    default: return nil
    }
  }

  /// The D-Bus type this value was read from, for messages.
  public var typeName: String {
    switch self {
    case .signed: return "signed integer"
    case .unsigned: return "unsigned integer"
    case .boolean: return "boolean"
    case .string: return "string"
    case .double: return "double"
    case .array: return "array"
    case .dictionary: return "dictionary"
    case .other(let signature): return "'\(signature)'"
    }
  }
}

/// One entry of a dictionary such as LauncherEntry's properties (`a{sv}`).
public struct BusProperty: Equatable, Sendable {
  public var key: String
  public var value: BusValue

  public init(key: String, value: BusValue) {
    self.key = key
    self.value = value
  }
}
