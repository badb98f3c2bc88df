import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's dovecot, started for one test in a folder of its own, as root, with the tests'
/// config (Tests/EndToEndTests/Fixtures/dovecot.conf; nothing of `/etc/dovecot` is read):
/// IMAPS on 127.0.0.1 and a free port with a certificate for
/// `localhost` signed by a CA of the test's own, LMTP on a Unix socket in its `base_dir`, and
/// the users asked for (`alice` unless told), each with the password `<user>-secret` and a
/// Maildir under `mail/`. The mail is written as nobody (65534): dovecot refuses to touch mail
/// as root.
///
/// A refused login is answered at once and never slows the next ones (`auth_failure_delay = 0`,
/// and an anvil penalty socket no auth process can open), so the tests of wrong passwords do
/// not stall. With `oauth`, logins with XOAUTH2 and OAUTHBEARER go to dovecot's `oauth2` passdb
/// and its `OAuthEndpoint`; with a `placement`, dovecot runs in a network namespace of its own
/// and listens on that namespace's address (`NetworkedMailServer`).
///
/// Stopped as systemd stops it, every process of its group at once, when the test ends,
/// failed or not: SIGTERM to the master alone leaves its `imap` processes serving for about
/// 10 s more.
final class MailServer {
  static let user = "alice"
  static let password = "alice-secret"
  /// The unprivileged owner of the mail (nobody, nogroup).
  static let mailOwner: UInt32 = 65534

  /// Where a server of a `NetworkedMailServer` runs: its namespace, the address it listens on
  /// there (which its certificate names), and the usual IMAPS port (the namespace is its own).
  struct Placement {
    let namespace: String
    let address: String
    let port = 993
  }

  let folder: TemporaryFolder
  /// The CA that signed the server's certificate, for the clients to check it with, and one
  /// that signed nothing here (a client trusting it gets "certificate verify failed").
  let caFile: String
  let otherCAFile: String
  /// Every user, alice first unless told otherwise.
  let users: [String]
  let placement: Placement?
  /// The introspection endpoint the `oauth2` passdb asks, when the server takes OAuth2 tokens.
  let oauth: OAuthEndpoint?
  private(set) var port = 0
  private(set) var child: Child?

  /// `users`: the accounts (`MailServer.numbered(10)` for ten more); `oauth`: also take OAuth2
  /// tokens (XOAUTH2, OAUTHBEARER) checked by an endpoint of the test's own.
  init(users: [String] = [user], oauth: Bool = false, placement: Placement? = nil) throws {
    folder = try TemporaryFolder()
    self.users = users
    self.placement = placement
    // dovecot's mail processes run as nobody and must reach the Maildirs inside.
    chmod(folder.path, 0o711)
    for sub in ["pki", "run", "state", "mail"] {
      try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
    }
    chown(folder.file("mail"), Self.mailOwner, Self.mailOwner)
    for user in users {
      for sub in ["", "/cur", "/new", "/tmp"] {
        let path = folder.file("mail/\(user)") + sub
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chown(path, Self.mailOwner, Self.mailOwner)
      }
    }
    caFile = folder.file("pki/ca.pem")
    otherCAFile = folder.file("pki/other-ca.pem")
    try TestCertificates.make(
      in: folder.file("pki"), names: ["DNS:localhost", "IP:127.0.0.1"] + (placement.map { ["IP:\($0.address)"] } ?? []))
    self.oauth = oauth ? try OAuthEndpoint(folder: folder, launcher: placement.map { Self.launcher($0) } ?? []) : nil
    try refuseLogins(false)
    try start()
  }

  deinit {
    stop()
    oauth?.stop()
  }

  /// `user1` … `user<count>`, for the tests of many accounts on one server.
  static func numbered(_ count: Int) -> [String] { (1...count).map { "user\($0)" } }

  /// Every user's password.
  static func password(of user: String) -> String { "\(user)-secret" }

  /// alice's Maildir (the first user's), where LMTP delivers and IMAP changes flags.
  var maildir: String { maildir(of: users[0]) }

  func maildir(of user: String) -> String { folder.file("mail/\(user)") }

  /// The LMTP socket.
  var lmtpSocket: String { folder.file("run/lmtp") }

  /// The address the clients connect to, which the certificate names.
  var host: String { placement?.address ?? "127.0.0.1" }

  /// What runs a program beside the server (in its namespace; nothing when it has none).
  var launcher: [String] { placement.map { Self.launcher($0) } ?? [] }

  private static func launcher(_ placement: Placement) -> [String] { ["ip", "netns", "exec", placement.namespace] }

  /// What dovecot logged.
  var log: String { (try? String(contentsOfFile: folder.file("dovecot.log"), encoding: .utf8)) ?? "" }

  /// Starts dovecot on a free port (another if a test took that one meanwhile; the same with
  /// `keepPort`) and waits until it listens: its LMTP socket exists (the master opens every
  /// listener before it starts a service) and, on the host, its IMAPS port answers.
  private func start(keepPort: Bool = false) throws {
    for _ in 0..<5 {
      if let placement {
        port = placement.port
      } else if !keepPort || port == 0 {
        port = try Broker.freePort()
      }
      try? FileManager.default.removeItem(atPath: lmtpSocket)
      let config = try folder.write("dovecot.conf", try configuration())
      let child = try Child(
        launcher + ["/usr/sbin/dovecot", "-F", "-c", config], environment: Child.environment(),
        stderr: .file(folder.file("dovecot.stderr")), newSession: true)
      self.child = child
      let up = waitUntil(timeout: 10) {
        (RawClient.canConnect(lmtpSocket) && (placement != nil || Broker.accepts(port: port))) || !child.isRunning
      }
      if up, child.isRunning { return }
      stop()
    }
    let stderr = (try? String(contentsOfFile: folder.file("dovecot.stderr"), encoding: .utf8)) ?? ""
    throw TestFailure("dovecot did not start: \(stderr)\(log)")
  }

  /// SIGTERM to every process of dovecot's group at once, then the master's exit: every
  /// client's connection closes within milliseconds.
  func stop() {
    guard let child else { return }
    if child.isRunning { kill(-child.pid, SIGTERM) }
    child.wait()
    // The group's other processes end on their own: wait until none is left, so that a
    // restart never meets "Dovecot is already running".
    _ = waitUntil(timeout: 10) { ProcFacts.members(ofGroup: child.pid).isEmpty }
    self.child = nil
  }

  /// Stops every process of the server and starts it again on the same port, with the same
  /// mail: a server restart as its clients see it.
  func restart() throws {
    stop()
    try start(keepPort: true)
  }

  /// Tests/EndToEndTests/Fixtures/dovecot.conf for this server, and the `oauth2` passdb after it.
  private func configuration() throws -> String {
    let template = try String(
      contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/dovecot.conf"), encoding: .utf8)
    var text = template
    for (name, value) in [
      ("@BASE@", folder.path), ("@LISTEN@", host), ("@PORT@", String(port)),
      ("@MECHANISMS@", oauth == nil ? "plain login" : "plain login xoauth2 oauthbearer"),
    ] {
      text = text.replacingOccurrences(of: name, with: value)
    }
    guard let oauth else { return text }
    return text
      + "passdb {\n  driver = oauth2\n  mechanisms = xoauth2 oauthbearer\n  args = \(oauth.dovecotSettings)\n}\n"
  }

}
