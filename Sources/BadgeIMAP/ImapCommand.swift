/// The commands a session sends. Mailbox names are UTF-8 here and modified UTF-7 on the wire.
public enum ImapCommand: Equatable, Sendable {
  case capability
  case noop
  case logout
  case startTLS
  case idle
  case login(username: String, password: [UInt8])
  /// `AUTHENTICATE mechanism [initial]`: the initial response (SASL-IR, RFC 4959) already base64.
  case authenticate(mechanism: String, initialResponse: [UInt8]?)
  case enable([String])
  /// `SELECT name`, with `(QRESYNC (uidValidity modSeq))` to resume (RFC 7162).
  case select(mailbox: String, qresync: (uidValidity: UInt32, modSeq: UInt64)?)
  case list(reference: String, pattern: String)
  /// `UID SEARCH criteria` (atoms, such as `UNSEEN UNDELETED`); `RETURN (ALL)` for ESEARCH.
  case uidSearch(criteria: String, extended: Bool)
  /// `UID FETCH first:* (UID FLAGS)`: the messages from a UID on.
  case uidFetchFrom(UInt32)
  /// `FETCH first:* (UID FLAGS)`: the messages from a sequence number on.
  case fetchFrom(UInt32)
  /// `UID STORE set +FLAGS.SILENT (\Seen)`.
  case markSeen([UInt32])

  public static func == (left: ImapCommand, right: ImapCommand) -> Bool {
    ImapCommandEncoder.body(left, literals: .plus) == ImapCommandEncoder.body(right, literals: .plus)
  }
}

/// Writes commands with tags `a1`, `a2`, … Strings are quoted when they can be; one that
/// cannot (8-bit, a line break) goes as a non-synchronizing literal `{n+}` when the server has
/// LITERAL+ (or LITERAL- and at most 4096 bytes), and is otherwise refused: a synchronizing
/// literal's round trip is not worth it for a password, the only string that may need one.
public struct ImapCommandEncoder: Sendable {
  public private(set) var nextTag = 1

  public init() {}

  /// `DONE`, which ends IDLE: no tag.
  public static let done = Array("DONE\r\n".utf8)

  public mutating func encode(_ command: ImapCommand, literals: ImapLiterals) throws(ImapFailure) -> (
    tag: String, bytes: [UInt8]
  ) {
    guard let body = Self.body(command, literals: literals) else {
      throw .violation("a string that cannot be quoted, and the server has no LITERAL+")
    }
    let tag = "a\(nextTag)"
    nextTag += 1
    return (tag, Array(tag.utf8) + [0x20] + body + [0x0D, 0x0A])
  }

  static func body(_ command: ImapCommand, literals: ImapLiterals) -> [UInt8]? {
    func string(_ bytes: [UInt8]) -> [UInt8]? { astring(bytes, literals: literals) }
    switch command {
    case .capability: return Array("CAPABILITY".utf8)
    case .noop: return Array("NOOP".utf8)
    case .logout: return Array("LOGOUT".utf8)
    case .startTLS: return Array("STARTTLS".utf8)
    case .idle: return Array("IDLE".utf8)
    case .login(let username, let password):
      guard let user = string(Array(username.utf8)), let secret = string(password) else { return nil }
      return Array("LOGIN ".utf8) + user + [0x20] + secret
    case .authenticate(let mechanism, let initial):
      return Array("AUTHENTICATE \(mechanism)".utf8) + (initial.map { [0x20] + $0 } ?? [])
    case .enable(let names): return Array("ENABLE \(names.joined(separator: " "))".utf8)
    case .select(let mailbox, let qresync):
      guard let name = string(ModifiedUTF7.encode(mailbox)) else { return nil }
      let resume = qresync.map { " (QRESYNC (\($0.uidValidity) \($0.modSeq)))" } ?? ""
      return Array("SELECT ".utf8) + name + Array(resume.utf8)
    case .list(let reference, let pattern):
      guard let reference = string(ModifiedUTF7.encode(reference)), let pattern = string(ModifiedUTF7.encode(pattern))
      else { return nil }
      return Array("LIST ".utf8) + reference + [0x20] + pattern
    case .uidSearch(let criteria, let extended):
      return Array("UID SEARCH \(extended ? "RETURN (ALL) " : "")\(criteria)".utf8)
    case .uidFetchFrom(let first): return Array("UID FETCH \(first):* (UID FLAGS)".utf8)
    case .fetchFrom(let first): return Array("FETCH \(first):* (UID FLAGS)".utf8)
    case .markSeen(let uids):
      return Array("UID STORE \(ImapSequenceSet.compressed(uids)) +FLAGS.SILENT (\\Seen)".utf8)
    }
  }

  /// A quoted string, or a non-synchronizing literal where the server allows one; nil otherwise.
  static func astring(_ bytes: [UInt8], literals: ImapLiterals) -> [UInt8]? {
    if bytes.allSatisfy({ $0 >= 0x01 && $0 <= 0x7F && $0 != 0x0D && $0 != 0x0A }) {
      var quoted: [UInt8] = [UInt8(ascii: "\"")]
      for byte in bytes {
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { quoted.append(UInt8(ascii: "\\")) }
        quoted.append(byte)
      }
      return quoted + [UInt8(ascii: "\"")]
    }
    guard literals == .plus || (literals == .minus && bytes.count <= 4096) else { return nil }
    return Array("{\(bytes.count)+}\r\n".utf8) + bytes
  }
}

/// Which non-synchronizing literals the server accepts: LITERAL+ (any), LITERAL- (RFC 7888: up
/// to 4096 bytes), or none.
public enum ImapLiterals: Sendable {
  case none
  case minus
  case plus

  public init(capabilities: Set<String>) {
    self = capabilities.contains("LITERAL+") ? .plus : capabilities.contains("LITERAL-") ? .minus : .none
  }
}

/// The SASL initial responses for an OAuth2 access token, base64 as AUTHENTICATE sends them.
public enum ImapSASL {
  /// `user=U\x01auth=Bearer T\x01\x01` (Google's and Microsoft's XOAUTH2).
  public static func xoauth2(username: String, token: [UInt8]) -> [UInt8] {
    ImapBase64.encode(Array("user=\(username)\u{1}auth=Bearer ".utf8) + token + [1, 1])
  }

  /// `n,a=U,\x01host=H\x01port=P\x01auth=Bearer T\x01\x01` (OAUTHBEARER, RFC 7628); a `,` or
  /// `=` in the name is escaped as `=2C`, `=3D` (RFC 5801's saslname).
  public static func oauthbearer(username: String, host: String, port: Int, token: [UInt8]) -> [UInt8] {
    let name = username.replacingAll("=", with: "=3D").replacingAll(",", with: "=2C")
    return ImapBase64.encode(
      Array("n,a=\(name),\u{1}host=\(host)\u{1}port=\(port)\u{1}auth=Bearer ".utf8) + token + [1, 1])
  }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for character in self {
      if character == target { out += replacement } else { out.append(character) }
    }
    return out
  }
}
