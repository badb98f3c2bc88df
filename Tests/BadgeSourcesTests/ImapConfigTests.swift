import BadgeConfig
import BadgeCore
import BadgeSources
import Testing

/// `kind = imap` sections: what each key gives, and every refusal with its exact message.
@Suite struct ImapConfigTests {
  static let account = """
    [source.mail]
    kind = imap
    server = imaps://imap.example.org
    username = ana@example.org
    password_file = ~/.config/badged/mail.pass

    """

  /// The one source `text` makes.
  static func spec(_ text: String) throws -> SourceSpec { try #require(try sources(text).sources.first) }

  static func settings(_ text: String) throws -> ImapSettings {
    guard case .imap(let settings) = try spec(text).settings else { throw ConfigError(file: "", line: 0, reason: "") }
    return settings
  }

  @Test func theDefaults() throws {
    let spec = try Self.spec(Self.account)
    var expected = ImapSettings(
      host: "imap.example.org", port: 993, security: .tls, username: "ana@example.org",
      credential: .passwordFile("~/.config/badged/mail.pass"))
    expected.folders = ["INBOX"]
    #expect(spec.settings == .imap(expected))
    #expect(spec.channel == .fixed(ChannelName("mail")!))
    #expect(spec.kind == .imap && spec.onClear == .seen && expected.maxConnections == 5 && expected.caFile == nil)
  }

  @Test(arguments: [
    ("imaps://imap.example.org:1993", "imap.example.org", 1993, ImapSettings.Security.tls),
    ("IMAPS://Imap.Example.org/", "Imap.Example.org", 993, .tls),
    ("imap://mail.example.org", "mail.example.org", 143, .startTLS),
    ("imap://mail.example.org:10143", "mail.example.org", 10143, .startTLS),
    ("imap://[2001:db8::1]:143", "2001:db8::1", 143, .startTLS),
    ("imap+plain://127.0.0.1:1143", "127.0.0.1", 1143, .plaintext),
    ("imap+plain://127.8.9.10:143", "127.8.9.10", 143, .plaintext),
    ("imap+plain://[::1]:143", "::1", 143, .plaintext),
    ("imap+plain://localhost:143", "localhost", 143, .plaintext),
  ])
  func eachServerForm(server: String, host: String, port: Int, security: ImapSettings.Security) throws {
    let settings = try Self.settings(Self.account.replacing("imaps://imap.example.org", with: server))
    #expect(settings.host == host && settings.port == port && settings.security == security)
  }

  @Test func eachCredential() throws {
    let file = "password_file = ~/.config/badged/mail.pass"
    func credential(_ line: String) throws -> ImapSettings.Credential {
      try Self.settings(Self.account.replacing(file, with: line)).credential
    }
    #expect(
      try credential("password_command = pass show 'mail/ana'") == .passwordCommand(["pass", "show", "mail/ana"]))
    #expect(
      try credential("password_secret = service=imap user='ana b'")
        == .secretService([.init(name: "service", value: "imap"), .init(name: "user", value: "ana b")]))
    #expect(
      try credential("oauth2_token_command = oama access ana@gmail.com")
        == .oauth2(command: ["oama", "access", "ana@gmail.com"], mechanism: .xoauth2))
    #expect(
      try credential("oauth2_mechanism = oauthbearer\noauth2_token_command = get-token")
        == .oauth2(command: ["get-token"], mechanism: .oauthbearer))
  }

  @Test func foldersCaFileConnectionsAndATemplate() throws {
    let spec = try Self.spec(
      Self.account
        + "folders = INBOX, Lists/*,  Sent Items\nca_file = ~/ca.pem\nmax_connections = 20\nchannel = mail:{folder}\n"
        + "on_clear = mark-read\ncoalesce_ms = 0")
    guard case .imap(let settings) = spec.settings else { throw ConfigError(file: "", line: 0, reason: "") }
    #expect(settings.folders == ["INBOX", "Lists/*", "Sent Items"])
    #expect(settings.caFile == "~/ca.pem" && settings.maxConnections == 20)
    #expect(spec.channel == .template(try ChannelTemplate("mail:{folder}")))
    #expect(spec.onClear == .markRead && spec.coalesceMs == 0 && spec.fixedChannels.isEmpty)
  }

  static let expected =
    "expected one of kind, channel, on_clear, coalesce_ms, server, username, password_file, password_command, "
    + "password_secret, oauth2_token_command, oauth2_mechanism, folders, ca_file, max_connections"
  static let forms = "expected imaps://host[:port], imap://host[:port] (STARTTLS) or imap+plain://host:port"
  static let plaintext =
    "imap+plain:// sends the password in the clear, so it is taken only for a loopback host (127.0.0.0/8, ::1, "
    + "localhost); use imaps:// or imap://"
  static let noURLParts = "no path, query or user (folders = and username = name those)"

  /// Lines 6 on, after the account's.
  static let refusals: [(String, String)] = [
    ("server = pop://x", "badged.conf:6: Invalid value 'pop://x' for server: \(forms)"),
    ("server = imap.example.org", "badged.conf:6: Invalid value 'imap.example.org' for server: \(forms)"),
    ("server = imaps://", "badged.conf:6: Invalid value 'imaps://' for server: no host: \(forms)"),
    ("server = imaps://:993", "badged.conf:6: Invalid value 'imaps://:993' for server: no host: \(forms)"),
    (
      "server = imaps://h/INBOX",
      "badged.conf:6: Invalid value 'imaps://h/INBOX' for server: a server URL holds no '/': \(noURLParts)"
    ),
    (
      "server = imaps://h?x=1",
      "badged.conf:6: Invalid value 'imaps://h?x=1' for server: a server URL holds no '?': \(noURLParts)"
    ),
    (
      "server = imaps://ana@h",
      "badged.conf:6: Invalid value 'imaps://ana@h' for server: a server URL holds no '@': \(noURLParts)"
    ),
    (
      "server = imaps://h:0",
      "badged.conf:6: Invalid value 'imaps://h:0' for server: the port is a number from 1 to 65535"
    ),
    (
      "server = imaps://h:65536",
      "badged.conf:6: Invalid value 'imaps://h:65536' for server: the port is a number from 1 to 65535"
    ),
    (
      "server = imaps://h:99x",
      "badged.conf:6: Invalid value 'imaps://h:99x' for server: the port is a number from 1 to 65535"
    ),
    (
      "server = imaps://h:+99",
      "badged.conf:6: Invalid value 'imaps://h:+99' for server: the port is a number from 1 to 65535"
    ),
    ("server = imaps://h o", "badged.conf:6: Invalid value 'imaps://h o' for server: 'h o' is no host name"),
    ("server = imaps://[::1", "badged.conf:6: Invalid value 'imaps://[::1' for server: the host's [ is not closed"),
    ("server = imaps://[host]", "badged.conf:6: Invalid value 'imaps://[host]' for server: 'host' is no IPv6 address"),
    (
      "server = imap+plain://mail.example.org:143",
      "badged.conf:6: Invalid value 'imap+plain://mail.example.org:143' for server: \(plaintext)"
    ),
    (
      "server = imap+plain://10.0.0.1:143",
      "badged.conf:6: Invalid value 'imap+plain://10.0.0.1:143' for server: \(plaintext)"
    ),
    (
      "server = imap+plain://127.0.0.1.example.org:143",
      "badged.conf:6: Invalid value 'imap+plain://127.0.0.1.example.org:143' for server: \(plaintext)"
    ),
    (
      "server = imap+plain://[::2]:143",
      "badged.conf:6: Invalid value 'imap+plain://[::2]:143' for server: \(plaintext)"
    ),
    ("username =", "badged.conf:6: Invalid value '' for username: expected a user name without control characters"),
    (
      "username = a\u{7}b",
      "badged.conf:6: Invalid value 'a\u{7}b' for username: expected a user name without control characters"
    ),
    (
      "password_file = mail.pass",
      "badged.conf:6: Invalid value 'mail.pass' for password_file: expected an absolute path or one starting with ~/"
    ),
    (
      "ca_file = ca.pem",
      "badged.conf:6: Invalid value 'ca.pem' for ca_file: expected an absolute path or one starting with ~/"
    ),
    (
      "oauth2_mechanism = plain",
      "badged.conf:6: Invalid value 'plain' for oauth2_mechanism: expected 'xoauth2' or 'oauthbearer'"
    ),
    (
      "folders = , ,",
      "badged.conf:6: Invalid value ', ,' for folders: expected folder names or globs separated by commas"
    ),
    ("max_connections = 0", "badged.conf:6: Invalid value '0' for max_connections: expected a number from 1 to 20"),
    ("max_connections = 21", "badged.conf:6: Invalid value '21' for max_connections: expected a number from 1 to 20"),
    ("path = ~/Mail", "badged.conf:6: Key 'path' in [source.mail] is for maildir sources, not imap ones; \(expected)"),
    (
      "interval_s = 60",
      "badged.conf:6: Key 'interval_s' in [source.mail] is for exec sources, not imap ones; \(expected)"
    ),
    (
      "password_command = pass show mail",
      "badged.conf:6: 'password_file' and 'password_command' cannot go together (lines 5 and 6): an imap source "
        + "takes one of password_file, password_command, password_secret or oauth2_token_command"
    ),
    (
      "oauth2_mechanism = xoauth2",
      "badged.conf:6: 'oauth2_mechanism' in [source.mail] is how a token is sent, and it gives no oauth2_token_command"
    ),
  ]

  @Test(arguments: refusals) func eachFaultHasItsMessage(line: String, message: String) {
    #expect(refusal(Self.account + line) == message)
  }

  /// The credential's values, each in place of the account's password_file.
  static let credentialRefusals: [(String, String)] = [
    ("password_command =", "badged.conf:5: Invalid value '' for password_command: expected a command"),
    (
      "password_command = pass 'show",
      "badged.conf:5: Invalid value 'pass 'show' for password_command: a ' quote is not closed"
    ),
    ("oauth2_token_command =  ", "badged.conf:5: Invalid value '' for oauth2_token_command: expected a command"),
    (
      "password_secret =",
      "badged.conf:5: Invalid value '' for password_secret: expected attribute=value pairs separated by spaces, as secret-tool lookup takes"
    ),
    (
      "password_secret = service",
      "badged.conf:5: Invalid value 'service' for password_secret: expected attribute=value pairs separated by spaces, as secret-tool lookup takes"
    ),
    (
      "password_secret = service=imap =ana",
      "badged.conf:5: Invalid value 'service=imap =ana' for password_secret: expected attribute=value pairs separated by spaces, as secret-tool lookup takes"
    ),
    ("password_secret = a=\"b", "badged.conf:5: Invalid value 'a=\"b' for password_secret: a \" quote is not closed"),
  ]

  @Test(arguments: credentialRefusals) func eachCredentialFaultHasItsMessage(line: String, message: String) {
    #expect(refusal(Self.account.replacing("password_file = ~/.config/badged/mail.pass", with: line)) == message)
  }

  @Test func whatASectionLacks() {
    #expect(
      refusal("[source.mail]\nkind = imap\nusername = ana\npassword_file = /p")
        == "badged.conf:2: [source.mail] has no server; an imap source needs one")
    #expect(
      refusal("[source.mail]\nkind = imap\nserver = imaps://h\npassword_file = /p")
        == "badged.conf:2: [source.mail] has no username; an imap source needs one")
    #expect(
      refusal("[source.mail]\nkind = imap\nserver = imaps://h\nusername = ana")
        == "badged.conf:2: [source.mail] has no password_file, password_command, password_secret or "
        + "oauth2_token_command; an imap source needs one")
  }

  @Test func imapKeysInAnotherKindAreNamedAsImapOnes() {
    #expect(
      refusal("[source.m]\nkind = maildir\npath = /m\nserver = imaps://h")
        == "badged.conf:4: Key 'server' in [source.m] is for imap sources, not maildir ones; expected one of kind, "
        + "channel, on_clear, coalesce_ms, path, folders")
  }

  @Test func anImapTemplateOwnsWhatItCanMake() {
    #expect(
      refusal(Self.account + "channel = mail:{folder}\n[source.x]\nkind = exec\ncommand = true\nchannel = mail:INBOX")
        == "badged.conf:10: Channel 'mail:INBOX' of [source.x] is one [source.mail]'s template 'mail:{folder}' makes "
        + "(badged.conf:6); a channel has one source")
  }
}
