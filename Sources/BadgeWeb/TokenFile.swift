/// The tokens file's text (docs/WEB.md, "Tokens"), read and written; `TokenStore` does the
/// file's I/O. Lines:
///
///     token <id> <read|write> <sha256 hex of token> <created unix s> <name…>
///     code <sha256 hex of code> <read|write> <expires unix s> <name…>
///
/// `#` comments, blank lines and lines it does not understand are kept as they are, so a
/// rewrite never loses what a person wrote by hand.
public struct TokenFile: Sendable, Equatable {
  /// A long-lived token, known by its hash.
  public struct Token: Sendable, Equatable {
    /// The first 8 characters of `hash`: what `badgectl web tokens` lists and revokes.
    public var id: String
    public var level: TokenAccess.Level
    public var hash: String
    /// When it was issued, in Unix seconds.
    public var created: Int64
    public var name: String

    public init(id: String, level: TokenAccess.Level, hash: String, created: Int64, name: String) {
      self.id = id
      self.level = level
      self.hash = hash
      self.created = created
      self.name = name
    }
  }

  /// A one-time code waiting to be redeemed.
  public struct Code: Sendable, Equatable {
    public var hash: String
    public var level: TokenAccess.Level
    /// The Unix second from which it is refused.
    public var expires: Int64
    public var name: String

    public init(hash: String, level: TokenAccess.Level, expires: Int64, name: String) {
      self.hash = hash
      self.level = level
      self.expires = expires
      self.name = name
    }
  }

  /// One line of the file.
  public enum Line: Sendable, Equatable {
    case token(Token)
    case code(Code)
    /// A comment, a blank line, or one this version does not read: kept as written.
    case other(String)
  }

  public var lines: [Line] = []

  public init(lines: [Line] = []) { self.lines = lines }

  /// Reads the file's text.
  public init(text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TokenFile.line(String($0)) }
    if lines.last == .other("") { lines.removeLast() }
  }

  /// The file's text, each line ending with a line feed.
  public var text: String {
    lines.map { line -> String in
      switch line {
      case .token(let t): return "token \(t.id) \(t.level.rawValue) \(t.hash) \(t.created) \(t.name)\n"
      case .code(let c): return "code \(c.hash) \(c.level.rawValue) \(c.expires) \(c.name)\n"
      case .other(let text): return text + "\n"
      }
    }.joined()
  }

  public var tokens: [Token] {
    lines.compactMap { if case .token(let token) = $0 { return token } else { return nil } }
  }

  public var codes: [Code] {
    lines.compactMap { if case .code(let code) = $0 { return code } else { return nil } }
  }

  /// A name as a line can hold it: control characters become spaces, at most 100 bytes, `-`
  /// when nothing is left.
  public static func cleanName(_ name: String) -> String {
    var text = String(
      String.UnicodeScalarView(name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    text = String(text.drop { $0 == " " })
    while text.utf8.count > 100 { text.removeLast() }
    while text.last == " " { text.removeLast() }
    return text.isEmpty ? "-" : text
  }

  /// Reads one line.
  static func line(_ text: String) -> Line {
    let words = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
    if words.count == 6, words[0] == "token", let level = TokenAccess.Level(rawValue: words[2]),
      isHash(words[3]), words[1] == String(words[3].prefix(8)), let created = Int64(words[4])
    {
      return .token(Token(id: words[1], level: level, hash: words[3], created: created, name: words[5]))
    }
    let codeWords = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
    if codeWords.count == 5, codeWords[0] == "code", isHash(codeWords[1]),
      let level = TokenAccess.Level(rawValue: codeWords[2]), let expires = Int64(codeWords[3])
    {
      return .code(Code(hash: codeWords[1], level: level, expires: expires, name: codeWords[4]))
    }
    return .other(text)
  }

  /// Whether `text` is a SHA-256 in lowercase hex.
  static func isHash(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
  }
}
