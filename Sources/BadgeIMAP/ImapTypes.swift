/// How a session logs in: `LOGIN` with a password, or SASL with an OAuth2 access token
/// (`XOAUTH2`, Google's and Microsoft's form; `OAUTHBEARER`, RFC 7628, which names the server).
public enum ImapAuth: Equatable, Sendable {
  case login
  case xoauth2
  case oauthbearer(host: String, port: Int)
}

/// What a reconnect resumes from: with QRESYNC, `SELECT … (QRESYNC (uidValidity highestModSeq))`
/// tells the session only what changed since, applied to `unseen`.
public struct ImapMailboxState: Equatable, Sendable {
  public var uidValidity: UInt32
  public var highestModSeq: UInt64?
  public var unseen: Set<UInt32>

  public init(uidValidity: UInt32, highestModSeq: UInt64?, unseen: Set<UInt32>) {
    self.uidValidity = uidValidity
    self.highestModSeq = highestModSeq
    self.unseen = unseen
  }
}

/// Why a session ended. Each is one line a user can act on.
public enum ImapFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// NO or BAD to LOGIN or AUTHENTICATE (the server's text), including `[AUTHENTICATIONFAILED]`.
  case loginRefused(String)
  /// An `imap://` server that does not offer STARTTLS: the session never logs in in the clear.
  case noStartTLS
  /// SELECT refused (the server's text).
  case mailboxRefused(String)
  /// An untagged BYE (or the connection closed) other than the answer to LOGOUT.
  case bye(String)
  /// Bytes that are no IMAP, a line over the parser's `maxLine`, a literal over `maxLiteral`, a
  /// reply the session did not ask for.
  case violation(String)

  public var description: String {
    switch self {
    case .loginRefused(let text): return "login refused: \(text)"
    case .noStartTLS: return "the server does not offer STARTTLS"
    case .mailboxRefused(let text): return "mailbox refused: \(text)"
    case .bye(let text): return "the server closed the session: \(text)"
    case .violation(let text): return "protocol violation: \(text)"
    }
  }
}

/// What the session asks its caller to do, and what it learnt, in order.
public enum ImapOutput: Equatable, Sendable {
  /// Write these bytes.
  case send([UInt8])
  /// Run the TLS handshake on the same socket, then call `tlsEstablished()`.
  case startTLS
  /// Fetch the password or token, then call `credential(_:)`.
  case needCredential
  /// A listing session's mailbox names (UTF-8; those that can be selected); it then logs out.
  case listed([String])
  /// The folder's whole unseen set (after SELECT, or after a resync), ascending.
  case synced(uidValidity: UInt32, unseen: [UInt32])
  /// Unseen UIDs that came and left since the last `synced` or `changed`, ascending.
  case changed(added: [UInt32], removed: [UInt32])
  /// `UID STORE +FLAGS.SILENT (\Seen)` done for these UIDs.
  case marked([UInt32])
  /// IDLE entered (the server's "+" seen).
  case idling
  /// The session is over; the caller closes the connection.
  case failed(ImapFailure)
}
