import Foundation

/// What the tests do to a `MailServer`'s mail: deliver as an MTA does, read, flag and expunge
/// as another mail client does (an IMAP session of its own, as Thunderbird would), and ask the
/// server for its own count.
extension MailServer {
  /// Delivers a message with `subject` (also its Message-ID's local part) to `user` through
  /// LMTP, as a mail server's MTA hands mail to dovecot.
  func deliver(to user: String = MailServer.user, subject: String) throws {
    try python(
      """
      import smtplib, sys
      l = smtplib.LMTP(sys.argv[1])
      l.sendmail("a@example.org", [sys.argv[2]],
                 "Subject: " + sys.argv[3] + "\\r\\nMessage-ID: <" + sys.argv[3] + "@example.org>\\r\\n\\r\\nhello\\r\\n")
      l.quit()
      """, lmtpSocket, user, subject)
  }

  /// Delivers a message with `subject` to alice.
  func deliver(_ subject: String) throws { try deliver(subject: subject) }

  /// Marks the message with `subject` `\Seen` in an IMAP session of its own, as another mail
  /// client does.
  func markSeen(_ subject: String, user: String = MailServer.user) throws {
    try imap(user: user, code: Self.found(subject) + "assert M.store(found, '+FLAGS', '(\\\\Seen)')[0] == 'OK'\n")
  }

  /// Marks the messages with these UIDs `\Seen`, in one `UID STORE` of a session of its own.
  func markSeen(uids: [UInt32], user: String = MailServer.user) throws {
    let set = uids.map(String.init).joined(separator: ",")
    try imap(user: user, code: "assert M.uid('STORE', '\(set)', '+FLAGS', '(\\\\Seen)')[0] == 'OK'\n")
  }

  /// Flags the message with `subject` `\Deleted` and expunges it, in a session of its own:
  /// its IDLE clients see `* N EXPUNGE`.
  func expunge(_ subject: String, user: String = MailServer.user) throws {
    try imap(
      user: user,
      code: Self.found(subject) + "assert M.store(found, '+FLAGS', '(\\\\Deleted)')[0] == 'OK'\nM.expunge()\n")
  }

  /// The UIDs of `user`'s INBOX without `\Seen` and without `\Deleted`, as the server counts
  /// them, sorted.
  func unseenUIDs(user: String = MailServer.user) throws -> [UInt32] {
    let output = try imap(user: user, code: "print(M.uid('SEARCH', 'UNSEEN UNDELETED')[1][0].decode())\n")
    return output.split(whereSeparator: \.isWhitespace).compactMap { UInt32($0) }.sorted()
  }

  /// `user`'s INBOX's UIDVALIDITY now.
  func uidValidity(user: String = MailServer.user) throws -> UInt32 {
    let output = try imap(user: user, code: "print(M.status('INBOX', '(UIDVALIDITY)')[1][0].decode())\n")
    guard let value = output.split(separator: "UIDVALIDITY ").last.flatMap({ UInt32($0.prefix { $0.isNumber }) })
    else { throw TestFailure("no UIDVALIDITY: \(output)") }
    return value
  }

  /// The server's own answer on INBOX: `STATUS (UNSEEN)`, and the subjects of the messages a
  /// `SEARCH UNSEEN` finds, sorted.
  func unseen(user: String = MailServer.user) throws -> (status: Int, subjects: [String]) {
    let output = try imap(
      user: user,
      code: """
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

  /// Python that sets `found` to the sequence number of the one message with `subject`.
  private static func found(_ subject: String) -> String {
    """
    typ, found = M.search(None, "SUBJECT", "\(subject)")
    assert typ == "OK" and len(found[0].split()) == 1, found
    found = found[0].decode()

    """
  }

  /// Runs `code` with `M`, an IMAPS session logged in as `user` with INBOX selected, beside
  /// the server (in its namespace when it has one); its output.
  @discardableResult
  func imap(user: String = MailServer.user, code: String) throws -> String {
    try python(
      """
      import imaplib, ssl, sys
      M = imaplib.IMAP4_SSL(sys.argv[1], int(sys.argv[2]), ssl_context=ssl.create_default_context(cafile=sys.argv[3]))
      M.login(sys.argv[4], sys.argv[5])
      M.select("INBOX")
      \(code)
      M.logout()
      """, host, String(port), caFile, user, Self.password(of: user))
  }

  @discardableResult
  func python(_ code: String, _ arguments: String...) throws -> String {
    let command = launcher + ["python3", "-c", code] + arguments
    let result = try run(command[0], Array(command.dropFirst()))
    guard result.status == 0 else { throw TestFailure("python3 failed: \(result.stderr)\ndovecot:\n\(log)") }
    return result.stdout
  }
}
