/// The name of a channel: 1–64 bytes from `A-Z a-z 0-9 . _ - :`, starting with a letter or digit.
///
/// Names are kept inline (eight machine words) rather than as a `String`, so that looking a
/// channel up for every request allocates nothing: the daemon hashes the bytes it just read.
public struct ChannelName: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The longest name accepted, in bytes.
  public static let maxLength = 64

  /// The rule, as error messages state it (the daemon's and the CLI's alike).
  public static let namingRule =
    "names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit"

  @usableFromInline private(set) var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  /// The number of bytes in use.
  public private(set) var count: Int = 0

  /// Validates `bytes` and copies them; `nil` when they are not a valid name.
  public init?(bytes: UnsafeRawBufferPointer) {
    guard ChannelName.isValid(bytes) else { return nil }
    count = bytes.count
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
  }

  /// Validates and copies a name given as text; `nil` when it is not a valid name.
  public init?(_ text: some StringProtocol) {
    var text = String(text)
    guard let name = text.withUTF8({ ChannelName(bytes: UnsafeRawBufferPointer($0)) }) else {
      return nil
    }
    self = name
  }

  /// Whether `bytes` form a valid channel name.
  public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= 1, bytes.count <= maxLength, isAlphanumeric(bytes[0]) else {
      return false
    }
    for byte in bytes where !isNameByte(byte) { return false }
    return true
  }

  /// Whether `byte` may appear in a name: `A-Z a-z 0-9 . _ - :`.
  @inline(__always)
  public static func isNameByte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
  }

  @inline(__always)
  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  /// Calls `body` with the name's bytes. Inlinable, so that the encoders in other modules
  /// (state lines, journal records) write the bytes in place instead of through a generic call.
  @inlinable
  public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
  }

  public var description: String {
    withBytes { String(decoding: $0, as: UTF8.self) }
  }

  public static func == (lhs: ChannelName, rhs: ChannelName) -> Bool {
    lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
      && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
      && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6 && lhs.words.7 == rhs.words.7
  }

  public func hash(into hasher: inout Hasher) {
    withBytes { hasher.combine(bytes: $0) }
  }

  /// Byte order, a name before every longer name it begins: the words compared as big-endian
  /// numbers, first to last, since a name's bytes are the words' bytes in memory order and
  /// zero past its end (no name holds a zero byte). A word at a time, not a byte: a long reply
  /// compares every channel's name with the last one shown (`LIST`, `STATS`).
  public static func < (lhs: ChannelName, rhs: ChannelName) -> Bool {
    withUnsafeBytes(of: lhs.words) { l in
      withUnsafeBytes(of: rhs.words) { r in
        for offset in stride(from: 0, to: 64, by: 8) {
          let a = UInt64(bigEndian: l.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          let b = UInt64(bigEndian: r.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          if a != b { return a < b }
        }
        return false
      }
    }
  }
}
