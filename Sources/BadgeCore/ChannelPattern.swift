/// A channel name or a glob over channel names: `*` matches any run of bytes, `?` one byte.
///
/// Used by `WATCH` and by `[channel …]` sections of the config (`[channel app:*]`).
public struct ChannelPattern: Hashable, Sendable, CustomStringConvertible {
  private let bytes: [UInt8]
  /// The exact name when the pattern has no wildcard.
  public let exactName: ChannelName?
  /// Whether the pattern is a literal followed by one trailing `*` and nothing else (`app:*`,
  /// `notify:*`, `*`): it matches exactly the names that begin with the literal (`prefix`).
  private let isPrefix: Bool

  /// Validates `text`: name bytes, `*` and `?`, at most `ChannelName.maxLength` bytes.
  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    self.init(bytes: bytes)
  }

  public init?(bytes: [UInt8]) {
    guard !bytes.isEmpty, bytes.count <= ChannelName.maxLength else { return nil }
    var wild = false
    for byte in bytes {
      if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") {
        wild = true
      } else if !ChannelName.isNameByte(byte) {
        return nil
      }
    }
    if wild {
      exactName = nil
      isPrefix =
        bytes.last == UInt8(ascii: "*")
        && !bytes.dropLast().contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
    } else {
      guard let name = bytes.withUnsafeBytes({ ChannelName(bytes: $0) }) else { return nil }
      exactName = name
      isPrefix = false
    }
    self.bytes = bytes
  }

  /// The pattern that matches every channel.
  public static let all = ChannelPattern("*")!

  /// Whether the pattern contains a wildcard.
  public var isGlob: Bool { exactName == nil }

  /// The literal bytes before the `*` of a prefix pattern (a literal and one trailing `*`:
  /// `app:*`, `notify:*`, `*`), which it matches every name beginning with; `nil` for other
  /// patterns. Sets of patterns (`ChannelPatternSet`, the server's index of watchers) look a
  /// name's beginnings up among these instead of trying each glob.
  public var prefix: NamePrefix? {
    guard isPrefix else { return nil }
    return bytes.withUnsafeBytes { NamePrefix(bytes: UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
  }

  /// Patterns are equal when their text is: the rest is derived from it.
  public static func == (lhs: ChannelPattern, rhs: ChannelPattern) -> Bool { lhs.bytes == rhs.bytes }

  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

  public var description: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether `name` matches.
  public func matches(_ name: ChannelName) -> Bool {
    if let exactName { return exactName == name }
    if isPrefix {
      return name.withBytes { name in bytes.withUnsafeBytes { name.starts(with: $0.dropLast()) } }
    }
    return name.withBytes { ByteGlob.matches(bytes[...], $0[...]) }
  }
}
