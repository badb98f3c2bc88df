import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's dovecot, started for one test in a folder of its own, as root: nothing of
/// `/etc/dovecot` is read, IMAPS on 127.0.0.1 and a free port with a certificate for
/// `localhost` signed by a CA of the test's own, LMTP on a Unix socket in its `base_dir`, one
/// user `alice` whose Maildir is `maildir`. The mail is written as nobody (65534): dovecot
/// refuses to touch mail as root.
///
/// Stopped as systemd stops it, every process of its group at once, when the test ends,
/// failed or not: SIGTERM to the master alone leaves its `imap` processes serving for about
/// 10 s more.
final class MailServer {
  static let user = "alice"
  static let password = "alice-secret"
  /// The unprivileged owner of the mail (nobody, nogroup).
  static let mailOwner: UInt32 = 65534

  let folder: TemporaryFolder
  /// The CA that signed the server's certificate, for the clients to check it with.
  let caFile: String
  private(set) var port = 0
  private var child: Child?

  init() throws {
    folder = try TemporaryFolder()
    // dovecot's mail processes run as nobody and must reach the Maildir inside.
    chmod(folder.path, 0o711)
    for sub in ["pki", "run", "state", "mail"] {
      try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
    }
    for sub in ["", "/cur", "/new", "/tmp"] {
      let path = folder.file("mail/\(Self.user)") + sub
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      chown(path, Self.mailOwner, Self.mailOwner)
    }
    chown(folder.file("mail"), Self.mailOwner, Self.mailOwner)
    caFile = folder.file("pki/ca.pem")
    try makeCertificates()
    _ = try folder.write("passwd", "\(Self.user):{PLAIN}\(Self.password)::::::\n")
    try start()
  }

  deinit { stop() }

  /// alice's Maildir, where LMTP delivers and IMAP changes flags.
  var maildir: String { folder.file("mail/\(Self.user)") }

  /// The LMTP socket.
  var lmtpSocket: String { folder.file("run/lmtp") }

  /// What dovecot logged.
  var log: String { (try? String(contentsOfFile: folder.file("dovecot.log"), encoding: .utf8)) ?? "" }

  /// Starts dovecot on a free port (another if a test took that one meanwhile) and waits until
  /// both its LMTP socket and its IMAPS port answer.
  private func start() throws {
    for _ in 0..<5 {
      port = try Broker.freePort()
      let config = try folder.write("dovecot.conf", configuration())
      let child = try Child(
        ["/usr/sbin/dovecot", "-F", "-c", config], environment: Child.environment(),
        stderr: .file(folder.file("dovecot.stderr")), newSession: true)
      self.child = child
      let up = waitUntil(timeout: 10) {
        (RawClient.canConnect(lmtpSocket) && Broker.accepts(port: port)) || !child.isRunning
      }
      if up, child.isRunning { return }
      stop()
    }
    let stderr = (try? String(contentsOfFile: folder.file("dovecot.stderr"), encoding: .utf8)) ?? ""
    throw TestFailure("dovecot did not start: \(stderr)\(log)")
  }

  /// SIGTERM to every process of dovecot's group at once, then the master's exit.
  func stop() {
    guard let child else { return }
    if child.isRunning { kill(-child.pid, SIGTERM) }
    child.wait()
    self.child = nil
  }

  private func configuration() -> String {
    let base = folder.path
    return """
      protocols = imap lmtp
      listen = 127.0.0.1
      base_dir = \(base)/run
      state_dir = \(base)/state
      log_path = \(base)/dovecot.log
      mail_uid = \(Self.mailOwner)
      mail_gid = \(Self.mailOwner)
      ssl = required
      ssl_cert = <\(base)/pki/srv.pem
      ssl_key = <\(base)/pki/srv.key
      mail_location = maildir:\(base)/mail/%u
      passdb {
        driver = passwd-file
        args = \(base)/passwd
      }
      userdb {
        driver = static
        args = home=\(base)/mail/%u
      }
      service imap-login {
        inet_listener imap {
          port = 0
        }
        inet_listener imaps {
          port = \(port)
          ssl = yes
        }
      }

      """
  }

  /// A CA and the server's key and certificate for `localhost` and 127.0.0.1 (mbsync checks
  /// the name, Python the address); elliptic-curve keys, which openssl makes at once.
  private func makeCertificates() throws {
    let pki = folder.file("pki")
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    try openssl(
      ["req", "-x509"] + curve + ["-days", "2", "-subj", "/CN=test-ca", "-keyout", pki + "/ca.key", "-out", caFile])
    try openssl(["req"] + curve + ["-subj", "/CN=localhost", "-keyout", pki + "/srv.key", "-out", pki + "/srv.csr"])
    let names = try folder.write("pki/ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    try openssl([
      "x509", "-req", "-in", pki + "/srv.csr", "-CA", caFile, "-CAkey", pki + "/ca.key", "-CAcreateserial",
      "-days", "2", "-extfile", names, "-out", pki + "/srv.pem",
    ])
    for name in ["ca.pem", "srv.pem", "srv.key"] { chmod(pki + "/" + name, 0o644) }
  }

  private func openssl(_ arguments: [String]) throws {
    let result = try run("openssl", arguments)
    guard result.status == 0 else { throw TestFailure("openssl \(arguments[0]) failed: \(result.stderr)") }
  }

  /// Delivers a message with `subject` (also its Message-ID's local part) to alice through
  /// LMTP, as a mail server's MTA hands mail to dovecot.
  func deliver(_ subject: String) throws {
    try python(
      """
      import smtplib, sys
      l = smtplib.LMTP(sys.argv[1])
      l.sendmail("a@example.org", ["\(Self.user)"],
                 "Subject: \(subject)\\r\\nMessage-ID: <\(subject)@example.org>\\r\\n\\r\\nhello\\r\\n")
      l.quit()
      """, lmtpSocket)
  }

  /// Marks the message with `subject` `\Seen` in an IMAP session of its own, as another mail
  /// client does.
  func markSeen(_ subject: String) throws {
    try imap(
      """
      typ, found = M.search(None, "SUBJECT", "\(subject)")
      assert typ == "OK" and len(found[0].split()) == 1, found
      typ, _ = M.store(found[0].decode(), "+FLAGS", "(\\\\Seen)")
      assert typ == "OK"
      """)
  }

  /// The server's own answer on INBOX: `STATUS (UNSEEN)`, and the subjects of the messages a
  /// `SEARCH UNSEEN` finds, sorted.
  func unseen() throws -> (status: Int, subjects: [String]) {
    let output = try imap(
      """
      typ, status = M.status("INBOX", "(UNSEEN)")
      print(status[0].decode().split("UNSEEN ")[1].rstrip(")"))
      typ, found = M.search(None, "UNSEEN")
      for number in found[0].split():
          typ, data = M.fetch(number.decode(), "(BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
          print(data[0][1].decode().strip().removeprefix("Subject: "))
      """)
    let lines = output.split(separator: "\n").map(String.init)
    guard let status = lines.first.flatMap(Int.init) else { throw TestFailure("no STATUS UNSEEN: \(output)") }
    return (status, lines.dropFirst().sorted())
  }

  /// Runs `code` with `M`, an IMAPS session logged in as alice with INBOX selected; its output.
  @discardableResult
  private func imap(_ code: String) throws -> String {
    try python(
      """
      import imaplib, ssl, sys
      M = imaplib.IMAP4_SSL("127.0.0.1", int(sys.argv[1]), ssl_context=ssl.create_default_context(cafile=sys.argv[2]))
      M.login("\(Self.user)", "\(Self.password)")
      M.select("INBOX")
      \(code)
      M.logout()
      """, String(port), caFile)
  }

  @discardableResult
  private func python(_ code: String, _ arguments: String...) throws -> String {
    let result = try run("python3", ["-c", code] + arguments)
    guard result.status == 0 else { throw TestFailure("python3 failed: \(result.stderr)\ndovecot:\n\(log)") }
    return result.stdout
  }
}
