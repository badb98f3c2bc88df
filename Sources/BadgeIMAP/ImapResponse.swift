/// The state word of a status response: tagged (OK, NO, BAD) or untagged (also BYE, PREAUTH).
public enum ImapStatus: String, Equatable, Sendable {
  case ok = "OK"
  case no = "NO"
  case bad = "BAD"
  case bye = "BYE"
  case preauth = "PREAUTH"
}

/// The bracketed code of a status response (`[UIDVALIDITY 3]`). Codes the session does not use
/// are kept as their atom and the rest of the bracket's text.
public enum ImapResponseCode: Equatable, Sendable {
  case capability(Set<String>)
  case uidValidity(UInt32)
  case uidNext(UInt32)
  case highestModSeq(UInt64)
  case noModSeq
  case alert
  case authenticationFailed
  case closed
  case other(String, String?)

  /// The code in its brackets, as a server writes it (`[AUTHENTICATIONFAILED]`), for a refusal's
  /// text: the code often says more than the words after it. Capabilities are sorted.
  public var bracketed: String {
    let inside: String
    switch self {
    case .capability(let names): inside = (["CAPABILITY"] + names.sorted()).joined(separator: " ")
    case .uidValidity(let value): inside = "UIDVALIDITY \(value)"
    case .uidNext(let value): inside = "UIDNEXT \(value)"
    case .highestModSeq(let value): inside = "HIGHESTMODSEQ \(value)"
    case .noModSeq: inside = "NOMODSEQ"
    case .alert: inside = "ALERT"
    case .authenticationFailed: inside = "AUTHENTICATIONFAILED"
    case .closed: inside = "CLOSED"
    case .other(let name, let argument): inside = argument.map { "\(name) \($0)" } ?? name
    }
    return "[\(inside)]"
  }
}

/// One FETCH response's items that the count needs; the others (bodies, envelopes) are skipped.
public struct ImapFetch: Equatable, Sendable {
  public var uid: UInt32?
  /// The flags as the server spells them (`\Seen`); nil when the response had no FLAGS.
  public var flags: [String]?
  public var modSeq: UInt64?

  public init(uid: UInt32? = nil, flags: [String]? = nil, modSeq: UInt64? = nil) {
    self.uid = uid
    self.flags = flags
    self.modSeq = modSeq
  }

  /// Counted: neither `\Seen` nor `\Deleted` (flags compare without regard to case).
  public var isUnseen: Bool? {
    guard let flags else { return nil }
    return !flags.contains { ["\\SEEN", "\\DELETED"].contains($0.uppercased()) }
  }
}

/// An ESEARCH response (RFC 4731): the command's tag, and the results asked for.
public struct ImapESearch: Equatable, Sendable {
  public var tag: String?
  public var uid: Bool
  public var all: [UInt32]?
  public var min: UInt32?
  public var max: UInt32?
  public var count: UInt32?
  public var modSeq: UInt64?

  public init(
    tag: String? = nil, uid: Bool = false, all: [UInt32]? = nil, min: UInt32? = nil, max: UInt32? = nil,
    count: UInt32? = nil, modSeq: UInt64? = nil
  ) {
    self.tag = tag
    self.uid = uid
    self.all = all
    self.min = min
    self.max = max
    self.count = count
    self.modSeq = modSeq
  }
}

/// One server response, as `ImapResponseParser` reads it. Anything the session has no use for
/// is `.unknown`: a server's extension never ends a session.
public enum ImapResponse: Equatable, Sendable {
  case tagged(tag: String, status: ImapStatus, code: ImapResponseCode?, text: String)
  case status(ImapStatus, code: ImapResponseCode?, text: String)
  case capability(Set<String>)
  case exists(UInt32)
  case recent(UInt32)
  case expunge(UInt32)
  case fetch(sequence: UInt32, ImapFetch)
  case search([UInt32], modSeq: UInt64?)
  case esearch(ImapESearch)
  case vanished(earlier: Bool, uids: [UInt32])
  /// A mailbox name decoded from modified UTF-7 to UTF-8.
  case list(flags: [String], delimiter: String?, name: String)
  case mailboxStatus(name: String, items: [String: UInt64])
  case flags([String])
  case enabled(Set<String>)
  case continuation(String)
  case unknown
}
