/// The first bytes of channel names, 0 to 63 of them (a pattern's `*` takes the 64th): the key
/// a prefix pattern (`app:*`) is filed under, and what a name's beginning is looked up as.
///
/// Up to 15 bytes (`app:`, `notify:`, most prefixes) are kept inline in two machine words, so
/// that looking a name's beginning up allocates nothing and hashes two words, and an index of
/// many prefixes takes 24 bytes a key; longer ones are kept in an array.
public struct NamePrefix: Hashable, Sendable, CustomStringConvertible {
  private enum Bytes: Hashable, Sendable {
    /// The bytes in order in the two words (little-endian), the rest zero.
    case inline(UInt64, UInt64, count: UInt8)
    case spilled([UInt8])
  }

  private let bytes: Bytes

  /// The most bytes kept inline.
  static let inlineCapacity = 15

  /// The bytes as they are (a pattern's literal part, checked by its parser), at most 64.
  init(bytes: UnsafeRawBufferPointer) {
    precondition(bytes.count <= ChannelName.maxLength, "a prefix longer than a name")
    guard bytes.count <= Self.inlineCapacity else {
      self.bytes = .spilled(Array(bytes))
      return
    }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    self.bytes = .inline(words.0, words.1, count: UInt8(bytes.count))
  }

  /// The first `length` bytes of `name` (at most its length).
  public init(_ name: ChannelName, length: Int) {
    self = name.withBytes { NamePrefix(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
  }

  /// The number of bytes.
  public var count: Int {
    switch bytes {
    case .inline(_, _, let count): return Int(count)
    case .spilled(let array): return array.count
    }
  }

  public var description: String {
    switch bytes {
    case .inline(let low, let high, let count):
      return withUnsafeBytes(of: (low, high)) { String(decoding: $0.prefix(Int(count)), as: UTF8.self) }
    case .spilled(let array):
      return String(decoding: array, as: UTF8.self)
    }
  }
}
