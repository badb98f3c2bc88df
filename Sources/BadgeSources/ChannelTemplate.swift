import BadgeCore

/// A family of channels a maildir source names, one per folder: `mail:{folder}`.
///
/// The choices the design left open, made here:
/// - A template has exactly one `{folder}`, and starts with a letter or digit as every channel
///   name does (`{folder}` alone would make `_Sent` of a folder `.Sent`, no name at all).
/// - Its literal parts hold at most `maxLiteralBytes` bytes together, so that every channel it
///   makes keeps its prefix and suffix and at least 15 bytes of the folder's name: a channel is
///   then made by this template exactly when it starts with the prefix and ends with the suffix,
///   which is what `couldMake(_:)` and `overlaps(_:)` decide on.
/// - A folder's part of the name: `/` (between levels) becomes `.`, a byte outside the name
///   rule becomes `_`, one for one (a two-byte `é` is `__`), the rest is kept. Folders whose
///   names map to the same channel share it, their counts added up as one fixed channel adds
///   up all its folders: the channel is a function of the folder, nothing else.
/// - A name over 64 bytes keeps the folder's first bytes, then `-` and 8 hex digits of a hash
///   (FNV-1a 64, folded to 32 bits) of the folder's own bytes, then the suffix: 55 + 1 + 8 bytes
///   without the suffix's share, so long folders that differ only past the cut stay apart.
public struct ChannelTemplate: Hashable, Sendable, CustomStringConvertible {
  /// The one placeholder a template holds.
  public static let placeholder = "{folder}"
  /// The most bytes the text around `{folder}` may take.
  public static let maxLiteralBytes = 40

  /// The bytes before `{folder}`.
  public let prefix: [UInt8]
  /// The bytes after `{folder}`.
  public let suffix: [UInt8]

  /// Why a text is not a template, phrased to follow "Invalid value 'x' for channel: ".
  public struct Invalid: Error, Equatable, Sendable {
    public let reason: String
  }

  /// Whether `text` is meant as a template rather than a channel name.
  public static func isTemplate(_ text: String) -> Bool { text.utf8.contains(UInt8(ascii: "{")) }

  public init(_ text: String) throws(Invalid) {
    let bytes = Array(text.utf8)
    let mark = Array(ChannelTemplate.placeholder.utf8)
    guard let start = ChannelTemplate.find(mark, in: bytes[...]) else {
      throw Invalid(reason: "a template holds {folder}, as in mail:{folder}")
    }
    let prefix = Array(bytes[..<start])
    let suffix = Array(bytes[(start + mark.count)...])
    guard ChannelTemplate.find(mark, in: suffix[...]) == nil else {
      throw Invalid(reason: "a template holds {folder} once")
    }
    guard let first = prefix.first, ChannelName.isNameByte(first), first != UInt8(ascii: "."),
      first != UInt8(ascii: "_"), first != UInt8(ascii: "-"), first != UInt8(ascii: ":")
    else {
      throw Invalid(reason: "a template starts with a letter or digit, as channel names do (mail:{folder})")
    }
    guard (prefix + suffix).allSatisfy(ChannelName.isNameByte) else {
      throw Invalid(reason: "around {folder} only A-Z a-z 0-9 . _ - : may stand")
    }
    guard prefix.count + suffix.count <= ChannelTemplate.maxLiteralBytes else {
      throw Invalid(reason: "at most \(ChannelTemplate.maxLiteralBytes) characters may stand around {folder}")
    }
    self.prefix = prefix
    self.suffix = suffix
  }

  public var description: String {
    String(decoding: prefix, as: UTF8.self) + ChannelTemplate.placeholder + String(decoding: suffix, as: UTF8.self)
  }

  /// The channel of the folder named `folder` (levels separated by `/`, any bytes).
  public func channel(forFolder folder: [UInt8]) -> ChannelName {
    var part = ChannelTemplate.namePart(folder)
    let room = ChannelName.maxLength - prefix.count - suffix.count
    if part.count > room {
      part = Array(part.prefix(room - 9)) + Array("-\(ChannelTemplate.hash8(folder))".utf8)
    }
    let bytes = prefix + part + suffix
    return bytes.withUnsafeBytes { ChannelName(bytes: $0)! }
  }

  /// Whether this template makes `name` for some folder.
  public func couldMake(_ name: ChannelName) -> Bool {
    name.withBytes { bytes in
      bytes.count > prefix.count + suffix.count && bytes.starts(with: prefix)
        && bytes.reversed().starts(
          with: suffix.reversed())
    }
  }

  /// Whether this template and `other` could make the same channel: their prefixes agree (one
  /// begins the other) and so do their suffixes (one ends the other).
  public func overlaps(_ other: ChannelTemplate) -> Bool {
    let prefixes = prefix.starts(with: other.prefix) || other.prefix.starts(with: prefix)
    let suffixes =
      suffix.reversed().starts(with: other.suffix.reversed()) || other.suffix.reversed().starts(with: suffix.reversed())
    return prefixes && suffixes
  }

  /// A folder's name as name bytes: `/` → `.`, a byte outside the rule → `_`.
  static func namePart(_ folder: [UInt8]) -> [UInt8] {
    folder.map { byte in
      if byte == UInt8(ascii: "/") { return UInt8(ascii: ".") }
      return ChannelName.isNameByte(byte) ? byte : UInt8(ascii: "_")
    }
  }

  /// 8 hex digits of `bytes`' FNV-1a 64 fingerprint, its halves exclusive-ored.
  static func hash8(_ bytes: [UInt8]) -> String {
    var fingerprint = Fingerprint()
    bytes.withUnsafeBytes { fingerprint.add($0) }
    let folded = UInt32(truncatingIfNeeded: fingerprint.value ^ (fingerprint.value >> 32))
    let hex = String(folded, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in haystack.startIndex...(haystack.endIndex - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }
}
