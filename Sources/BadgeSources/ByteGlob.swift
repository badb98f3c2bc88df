/// A glob over the bytes of a name that need not be text (a folder, a file): `*` matches any run
/// of bytes (`/` too, so `Lists/*` takes every folder under `Lists` however deep), `?` one byte,
/// every other byte itself. No classes, no escapes: folder and file names the globs are written
/// for do not need them, and a name holding `*` or `?` is still matched by those.
///
/// Channel patterns (`ChannelPattern`) are the same language over channel names; these take any
/// byte, as the file system does.
public struct ByteGlob: Hashable, Sendable, CustomStringConvertible {
  public let bytes: [UInt8]

  public init(_ text: some StringProtocol) { bytes = Array(text.utf8) }

  public var description: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether the glob has no wildcard, and so names one thing.
  public var isLiteral: Bool { !bytes.contains(UInt8(ascii: "*")) && !bytes.contains(UInt8(ascii: "?")) }

  /// Whether `name` matches. Linear in practice: a failed match past a `*` goes back only to
  /// the last `*`, one byte further into the name each time.
  public func matches(_ name: [UInt8]) -> Bool {
    var g = 0
    var n = 0
    var lastStar: (glob: Int, name: Int)?
    while n < name.count {
      let byte = g < bytes.count ? bytes[g] : nil
      if byte == UInt8(ascii: "*") {
        lastStar = (g, n)
        g += 1
      } else if let byte, byte == UInt8(ascii: "?") || byte == name[n] {
        g += 1
        n += 1
      } else if let star = lastStar {
        lastStar = (star.glob, star.name + 1)
        g = star.glob + 1
        n = star.name + 1
      } else {
        return false
      }
    }
    return bytes[g...].allSatisfy { $0 == UInt8(ascii: "*") }
  }

  /// Globs written in a config value, separated by spaces, tabs or commas; `nil` when there are
  /// none.
  public static func list(_ value: String) -> [ByteGlob]? {
    let words = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    return words.isEmpty ? nil : words.map { ByteGlob($0) }
  }
}
