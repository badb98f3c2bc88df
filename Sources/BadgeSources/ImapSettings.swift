import BadgeCore

/// `kind = imap`: an account on an IMAP server, its folders counted over a connection each.
public struct ImapSettings: Equatable, Sendable {
  /// How the connection is protected, from the scheme of `server`.
  public enum Security: Equatable, Sendable {
    /// `imaps://`: TLS from the first byte.
    case tls
    /// `imap://`: STARTTLS, required; a server without it is refused, never used in the clear.
    case startTLS
    /// `imap+plain://`: no TLS, taken only for a loopback host.
    case plaintext
  }

  /// Where the password or the token comes from, fetched anew for each login.
  public enum Credential: Equatable, Sendable {
    /// `password_file`: its first line; refused when group or others may read it.
    case passwordFile(String)
    /// `password_command`: the first line the command prints.
    case passwordCommand([String])
    /// `password_secret`: the Secret Service item with these attributes.
    case secretService([SecretAttribute])
    /// `oauth2_token_command`: an access token the command prints, sent with `mechanism`.
    case oauth2(command: [String], mechanism: OAuthMechanism)
  }

  /// One `attribute=value` of `password_secret`, as `secret-tool lookup` takes them.
  public struct SecretAttribute: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// `oauth2_mechanism`: the SASL mechanism an access token is sent with.
  public enum OAuthMechanism: String, Equatable, Sendable, CaseIterable {
    case xoauth2
    case oauthbearer
  }

  public var host: String
  public var port: Int
  public var security: Security
  /// `username`.
  public var username: String
  public var credential: Credential
  /// `folders`: globs over the server's mailbox names, default `["INBOX"]`.
  public var folders: [String] = ["INBOX"]
  /// `ca_file`: the certificates to verify the server with instead of the system's store.
  public var caFile: String?
  /// `max_connections`: the most folders watched at once, a connection each.
  public var maxConnections = ImapSettings.defaultMaxConnections

  public init(host: String, port: Int, security: Security, username: String, credential: Credential) {
    self.host = host
    self.port = port
    self.security = security
    self.username = username
    self.credential = credential
  }

  public static let defaultMaxConnections = 5
  /// `max_connections`: servers allow a user 10 (dovecot) to 15 (Gmail) connections per address.
  public static let maxConnectionsRange = 1...20
  /// The credential keys, of which a section gives exactly one.
  public static let credentialKeys = ["password_file", "password_command", "password_secret", "oauth2_token_command"]

  /// `~/` in the paths of `ca_file` and `password_file` made absolute with `home`.
  func expanded(home: [UInt8]) -> ImapSettings {
    var settings = self
    let expand = { (path: String) in String(decoding: BytePath.expand(path, home: home), as: UTF8.self) }
    settings.caFile = caFile.map(expand)
    if case .passwordFile(let path) = credential { settings.credential = .passwordFile(expand(path)) }
    return settings
  }
}

/// `server = imaps://host[:port]`, read into host, port and security.
enum ImapServer {
  /// How every refusal of a server ends.
  static let forms = "expected imaps://host[:port], imap://host[:port] (STARTTLS) or imap+plain://host:port"

  /// `value` as host, port and security; a path, a query, a user or a port out of range is
  /// refused, and so is plaintext to a host that is not this machine's loopback.
  static func parse(_ value: String) throws(SettingKey.InvalidValue) -> (String, Int, ImapSettings.Security) {
    typealias Invalid = SettingKey.InvalidValue
    let schemes: [(String, ImapSettings.Security, Int)] = [
      ("imaps://", .tls, 993), ("imap://", .startTLS, 143), ("imap+plain://", .plaintext, 143),
    ]
    guard let (scheme, security, defaultPort) = schemes.first(where: { value.lowercased().hasPrefix($0.0) }) else {
      throw Invalid(reason: forms)
    }
    var rest = Substring(value.dropFirst(scheme.count))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    if let odd = rest.first(where: { "/?#@".contains($0) }) {
      throw Invalid(
        reason: "a server URL holds no '\(odd)': no path, query or user (folders = and username = name those)")
    }
    var host: Substring
    var portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw Invalid(reason: "the host's [ is not closed") }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw Invalid(reason: forms) }
        portText = after.dropFirst()
      }
      guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
        throw Invalid(reason: "'\(host)' is no IPv6 address")
      }
    } else {
      let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      host = parts[0]
      portText = parts.count > 1 ? parts[1] : nil
      guard !host.isEmpty else { throw Invalid(reason: "no host: " + forms) }
      guard host.utf8.count <= 253,
        host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) })
      else { throw Invalid(reason: "'\(host)' is no host name") }
    }
    var port = defaultPort
    if let portText {
      guard let number = Int(portText), (1...65_535).contains(number), portText.allSatisfy(\.isNumber) else {
        throw Invalid(reason: "the port is a number from 1 to 65535")
      }
      port = number
    }
    if security == .plaintext && !isLoopback(host) {
      throw Invalid(
        reason: "imap+plain:// sends the password in the clear, so it is taken only for a loopback host "
          + "(127.0.0.0/8, ::1, localhost); use imaps:// or imap://")
    }
    return (String(host), port, security)
  }

  /// 127.0.0.0/8, `::1` or `localhost`: the connection never leaves the machine.
  static func isLoopback(_ host: some StringProtocol) -> Bool {
    if host.lowercased() == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    return octets.count == 4 && octets[0] == "127"
      && octets.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
  }
}
