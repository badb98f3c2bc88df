/// Why a connection to an IMAP server failed, as one line for the source's state and the log:
/// "cannot connect to mail.example.org:993: Connection refused", "TLS handshake with
/// mail.example.org:993 failed: certificate does not verify: …".
public struct TransportError: Error, Equatable, Sendable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }
}
