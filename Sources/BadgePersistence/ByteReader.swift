import BadgeCore

/// Reads little-endian values from a payload, never past its end.
struct ByteReader {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var isAtEnd: Bool { offset == bytes.count }

  mutating func byte() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func bytes(_ n: Int) -> UnsafeRawBufferPointer? {
    guard n <= bytes.count - offset else { return nil }
    defer { offset += n }
    return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
  }

  /// A name as `RecordCodec.writeName` writes it; `nil` when it breaks the naming rules.
  mutating func name() -> ChannelName? {
    guard let length = byte(), let raw = bytes(Int(length)) else { return nil }
    return ChannelName(bytes: raw)
  }

  /// A host name as `RecordCodec.writeText` writes it (a byte of length): 1 to 64 bytes of an
  /// id's characters, else `nil`.
  mutating func host() -> String? {
    guard let length = byte(), let raw = bytes(Int(length)), RequestID.isValidToken(raw) else { return nil }
    return String(decoding: raw, as: UTF8.self)
  }

  mutating func integer<T: FixedWidthInteger>() -> T? {
    guard let raw = bytes(MemoryLayout<T>.size) else { return nil }
    return T(littleEndian: raw.loadUnaligned(as: T.self))
  }

  /// A varint as `RecordCodec.writeVarint` writes it; `nil` past the end or past 64 bits.
  mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while let byte = byte() {
      let bits = UInt64(byte & 0x7F)
      guard shift < 64, shift < 63 || bits <= 1 else { return nil }
      value |= bits << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    return nil
  }

  /// A request id as `RecordCodec.writeID` writes it.
  mutating func requestID() -> RequestID? {
    guard let high: UInt64 = integer(), let low: UInt64 = integer(), let fingerprint: UInt64 = integer() else {
      return nil
    }
    return RequestID(high: high, low: low, fingerprint: fingerprint)
  }
}
