import BadgeCore

extension ByteGlob {
  /// Globs written in a config value (`folders =`, `match =`), separated by spaces, tabs or
  /// commas; `nil` when there are none.
  public static func list(_ value: String) -> [ByteGlob]? {
    let words = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    return words.isEmpty ? nil : words.map { ByteGlob($0) }
  }
}
