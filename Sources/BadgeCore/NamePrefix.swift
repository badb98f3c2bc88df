/// The first bytes of channel names, 0 to 63 of them (a pattern's `*` takes the 64th): the key
/// a prefix pattern (`app:*`) is filed under, and what a name's beginning is looked up as.
///
/// Kept inline like `ChannelName` (eight machine words, the bytes past `count` zero), so that
/// looking a name's beginnings up allocates nothing.
public struct NamePrefix: Hashable, Sendable, CustomStringConvertible {
  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// The number of bytes.
  public private(set) var count: Int = 0

  /// The bytes as they are (a pattern's literal part, checked by its parser), at most 64.
  init(bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count <= ChannelName.maxLength, "a prefix longer than a name")
    count = bytes.count
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
  }

  /// The first `length` bytes of `name` (at most its length).
  public init(_ name: ChannelName, length: Int) {
    self = name.withBytes { NamePrefix(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
  }

  public var description: String {
    withUnsafeBytes(of: words) { String(decoding: $0.prefix(count), as: UTF8.self) }
  }

  public static func == (lhs: NamePrefix, rhs: NamePrefix) -> Bool {
    lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
      && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4
      && lhs.words.5 == rhs.words.5 && lhs.words.6 == rhs.words.6 && lhs.words.7 == rhs.words.7
  }

  public func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: words) { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
  }
}
