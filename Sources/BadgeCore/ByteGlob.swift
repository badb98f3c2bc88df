/// A glob over the bytes of a name that need not be text (a folder, a file): `*` matches any run
/// of bytes (`/` too, so `Lists/*` takes every folder under `Lists` however deep), `?` one byte,
/// every other byte itself. No classes, no escapes: folder and file names the globs are written
/// for do not need them, and a name holding `*` or `?` is still matched by those.
///
/// Channel patterns (`ChannelPattern`) are the same language over channel names and match with
/// the same `ByteGlob.matches(_:_:)`; these take any byte, as the file system does.
public struct ByteGlob: Hashable, Sendable, CustomStringConvertible {
  public let bytes: [UInt8]

  public init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

  public var description: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether the glob has no wildcard, and so names one thing.
  public var isLiteral: Bool { !bytes.contains(UInt8(ascii: "*")) && !bytes.contains(UInt8(ascii: "?")) }

  /// Whether `name` matches.
  public func matches(_ name: [UInt8]) -> Bool { ByteGlob.matches(bytes[...], name[...]) }

  /// Whether `text` matches `pattern`: iterative, with one backtrack point (the last `*`), so
  /// linear in practice and never recursive: a failed match past a `*` goes back only to that
  /// `*`, one byte further into the text each time.
  @inlinable
  public static func matches<Pattern: RandomAccessCollection<UInt8>, Text: RandomAccessCollection<UInt8>>(
    _ pattern: Pattern, _ text: Text
  ) -> Bool where Pattern.Index == Int, Text.Index == Int {
    var p = pattern.startIndex
    var t = text.startIndex
    var star: Int? = nil
    var resume = t
    while t < text.endIndex {
      if p < pattern.endIndex, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
        star = p
        p += 1
        resume = t
      } else if let s = star {
        p = s + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
    return p == pattern.endIndex
  }
}
