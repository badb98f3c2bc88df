import BadgeIMAP
import Testing

/// One step of a scripted conversation: the server's bytes, or a call on the session, and the
/// outputs the session answers with.
enum Turn: Sendable {
  case server(String, [ImapOutput])
  case call(@Sendable (inout ImapSession) -> Void, [ImapOutput])
}

/// `.send` of a command as text.
func send(_ text: String) -> ImapOutput { .send(Array(text.utf8)) }

/// Plays `turns` on a new session twice: each server turn fed whole, then a byte at a time;
/// both must answer every turn the same. Returns the session as the whole run left it.
@discardableResult
func play(
  _ make: () -> ImapSession, _ turns: [Turn], sourceLocation: SourceLocation = #_sourceLocation
) -> ImapSession {
  var result = make()
  for byteAtATime in [false, true] {
    var session = make()
    session.connected()
    for (index, turn) in turns.enumerated() {
      var outputs: [ImapOutput] = []
      let expected: [ImapOutput]
      switch turn {
      case .server(let text, let answer):
        expected = answer
        let bytes = Array(text.utf8)
        if byteAtATime {
          for byte in bytes {
            [byte].withUnsafeBytes { session.received($0) }
            outputs += session.takeOutput()
          }
        } else {
          bytes.withUnsafeBytes { session.received($0) }
          outputs = session.takeOutput()
        }
      case .call(let action, let answer):
        expected = answer
        action(&session)
        outputs = session.takeOutput()
      }
      #expect(
        outputs == expected, "turn \(index)\(byteAtATime ? " (a byte at a time)" : "")",
        sourceLocation: sourceLocation)
    }
    if !byteAtATime { result = session }
  }
  return result
}

/// Dovecot 2.3's replies, as it sends them.
enum Dovecot {
  static let greeting =
    "* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ AUTH=PLAIN AUTH=XOAUTH2 "
    + "AUTH=OAUTHBEARER] Dovecot (Debian) ready.\r\n"
  static let loggedIn =
    "OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES "
    + "THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS "
    + "LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS "
    + "BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE] "
    + "Logged in\r\n"
  /// SELECT's untagged data for a folder of three messages, UIDs 1...3.
  static func selected(uidValidity: UInt32 = 1_733_440_000, uidNext: UInt32 = 4, modSeq: UInt64 = 5) -> String {
    "* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)\r\n"
      + "* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft \\*)] Flags permitted.\r\n"
      + "* 3 EXISTS\r\n* 0 RECENT\r\n* OK [UNSEEN 2] First unseen.\r\n"
      + "* OK [UIDVALIDITY \(uidValidity)] UIDs valid\r\n* OK [UIDNEXT \(uidNext)] Predicted next UID\r\n"
      + "* OK [HIGHESTMODSEQ \(modSeq)] Highest\r\n"
  }

  static func session(
    auth: ImapAuth = .login, startTLS: Bool = false, mailbox: String? = "INBOX", resume: ImapMailboxState? = nil
  ) -> ImapSession {
    ImapSession(username: "alice", auth: auth, startTLS: startTLS, mailbox: mailbox, resume: resume)
  }

  /// Greeting to IDLE on INBOX with QRESYNC: UIDs 2 and 3 unseen.
  static let toIdle: [Turn] = [
    .server(greeting, [.needCredential]),
    .call({ $0.credential(Array("secret".utf8)) }, [send("a1 LOGIN \"alice\" \"secret\"\r\n")]),
    .server("a1 " + loggedIn, [send("a2 ENABLE QRESYNC\r\n")]),
    .server("* ENABLED QRESYNC\r\na2 OK Enabled.\r\n", [send("a3 SELECT \"INBOX\"\r\n")]),
    .server(
      selected() + "a3 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).\r\n",
      [send("a4 UID SEARCH RETURN (ALL) UNSEEN UNDELETED\r\n")]),
    .server(
      "* ESEARCH (TAG \"a4\") UID ALL 2:3\r\na4 OK Search completed (0.001 + 0.000 secs).\r\n",
      [.synced(uidValidity: 1_733_440_000, unseen: [2, 3]), send("a5 IDLE\r\n")]),
    .server("+ idling\r\n", [.idling]),
  ]
}
