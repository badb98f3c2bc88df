import BadgeCore

/// The bounds on what the bridge takes from the broker.
public enum MeshLimits {
  /// The largest MQTT packet the bridge accepts, sent as the MQTT 5 maximum packet size on
  /// CONNECT: the broker drops anything larger meant for it instead of sending it.
  public static let maxPacketBytes = 8192
  /// The largest payload decoded; checked again on every message, whatever the broker did.
  public static let maxPayloadBytes = 4096
  /// The longest request id (the daemon's rule), answer error or label kept from a message.
  public static let maxIDBytes = RequestID.maxTokenLength
  public static let maxErrorBytes = 512
  public static let maxLabelBytes = 32
  /// The channels whose owners the bridge keeps track of, and the hosts: what the broker's
  /// retained states can make it hold, bounded as badged bounds its channels (`max_channels`'
  /// default). Past them, a state or status of a channel or host not yet known is dropped.
  public static let maxChannels = 10_000
  public static let maxHosts = 1_000
}

/// Why a payload was dropped: said in the debug line that drops it.
public struct PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Reading the members of a decoded object with the types and ranges they must have.
struct PayloadReader {
  let object: JSONValue

  /// Parses `bytes` as one JSON object within the payload limit.
  init(_ bytes: some Collection<UInt8>) throws(PayloadError) {
    guard bytes.count <= MeshLimits.maxPayloadBytes else {
      throw PayloadError("payload of \(bytes.count) bytes is over \(MeshLimits.maxPayloadBytes)")
    }
    do throws(JSONError) {
      object = try JSONValue.parse(bytes, maxBytes: MeshLimits.maxPayloadBytes)
    } catch {
      throw PayloadError("not JSON: \(error)")
    }
    guard case .object = object else { throw PayloadError("not a JSON object") }
  }

  /// Refuses members other than `allowed`.
  func onlyKeys(_ allowed: Set<String>) throws(PayloadError) {
    if let extra = object.keys.first(where: { !allowed.contains($0) }) {
      throw PayloadError("unknown member '\(extra.prefix(32))'")
    }
  }

  func integer(_ key: String, in range: ClosedRange<Int64>) throws(PayloadError) -> Int64? {
    guard let value = object[key] else { return nil }
    guard case .integer(let number) = value, range.contains(number) else {
      throw PayloadError("'\(key)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
  }

  func required(_ key: String, in range: ClosedRange<Int64>) throws(PayloadError) -> Int64 {
    guard let number = try integer(key, in: range) else { throw PayloadError("'\(key)' is missing") }
    return number
  }

  func bool(_ key: String) throws(PayloadError) -> Bool? {
    guard let value = object[key] else { return nil }
    guard case .bool(let flag) = value else { throw PayloadError("'\(key)' is not true or false") }
    return flag
  }

  func requiredBool(_ key: String) throws(PayloadError) -> Bool {
    guard let flag = try bool(key) else { throw PayloadError("'\(key)' is missing") }
    return flag
  }

  func string(_ key: String, maxBytes: Int) throws(PayloadError) -> String? {
    guard let value = object[key] else { return nil }
    guard case .string(let text) = value, text.utf8.count <= maxBytes else {
      throw PayloadError("'\(key)' is not a string of at most \(maxBytes) bytes")
    }
    return text
  }

  func requiredString(_ key: String, maxBytes: Int) throws(PayloadError) -> String {
    guard let text = try string(key, maxBytes: maxBytes) else { throw PayloadError("'\(key)' is missing") }
    return text
  }

  /// A host name (`owner`, `host`).
  func host(_ key: String) throws(PayloadError) -> String {
    let text = try requiredString(key, maxBytes: 64)
    guard MeshConfig.isHostName(text) else { throw PayloadError("'\(key)' is not a host name") }
    return text
  }

  func requestID() throws(PayloadError) -> String? {
    guard let id = try string("id", maxBytes: MeshLimits.maxIDBytes) else { return nil }
    guard RequestID.isValidToken(id) else { throw PayloadError("'id' is not a request id") }
    return id
  }
}

extension ClosedRange<Int64> {
  /// A count's range, as JSON payloads carry it.
  static var counts: ClosedRange<Int64> { 0...Int64(Limits.maxCount) }
  static var nonNegative: ClosedRange<Int64> { 0...Int64.max }

  /// A range of the model's (`ChannelWrite.amounts`), as JSON's integers are read.
  init(_ range: ClosedRange<Int>) {
    self = Int64(range.lowerBound)...Int64(range.upperBound)
  }
}

extension String {
  /// The longest prefix of whole characters that fits `limit` bytes of UTF-8.
  public func truncated(toUTF8 limit: Int) -> String {
    guard utf8.count > limit else { return self }
    var out = ""
    var bytes = 0
    for character in self {
      bytes += character.utf8.count
      guard bytes <= limit else { break }
      out.append(character)
    }
    return out
  }
}
