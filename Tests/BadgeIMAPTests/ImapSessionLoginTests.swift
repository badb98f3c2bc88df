import BadgeIMAP
import Testing

/// Logging in: STARTTLS before any credential, LOGIN and its refusals, XOAUTH2 and OAUTHBEARER
/// with and without SASL-IR, a refused token's challenge, PREAUTH, listing.
@Suite struct ImapSessionLoginTests {
  static let plainGreeting =
    "* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS LOGINDISABLED] "
    + "Dovecot (Debian) ready.\r\n"

  @Test func startTLSComesBeforeTheCredentialAndCapabilitiesAreAskedAgain() {
    play(
      { Dovecot.session(startTLS: true) },
      [
        .server(Self.plainGreeting, [send("a1 STARTTLS\r\n")]),
        .server("a1 OK Begin TLS negotiation now.\r\n", [.startTLS]),
        .call({ $0.tlsEstablished() }, [send("a2 CAPABILITY\r\n")]),
        .server(
          "* CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ AUTH=PLAIN\r\n"
            + "a2 OK Pre-login capabilities listed, post-login capabilities have more.\r\n", [.needCredential]),
        .call({ $0.credential(Array("pässword".utf8)) }, [send("a3 LOGIN \"alice\" {9+}\r\npässword\r\n")]),
      ])
  }

  @Test func bytesInjectedAfterStartTLSsOkAreRefused() {
    for injected in ["* OK [CAPAB", "* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n"] {
      var session = Dovecot.session(startTLS: true)
      session.connected()
      Array((Self.plainGreeting + "a1 OK Begin TLS.\r\n" + injected).utf8).withUnsafeBytes { session.received($0) }
      #expect(
        session.takeOutput() == [
          send("a1 STARTTLS\r\n"), .failed(.violation("bytes after STARTTLS's OK, before TLS")),
        ])
    }
  }

  @Test func aServerWithoutStartTLSIsRefusedBeforeAnyCredential() {
    play(
      { Dovecot.session(startTLS: true) },
      [.server("* OK [CAPABILITY IMAP4rev1 IDLE AUTH=PLAIN] ready\r\n", [.failed(.noStartTLS)])])
    play({ Dovecot.session(startTLS: true) }, [.server("* PREAUTH ready\r\n", [.failed(.noStartTLS)])])
  }

  @Test func loginDisabledIsALoginRefusal() {
    play(
      { Dovecot.session() },
      [
        .server(Self.plainGreeting, [.needCredential]),
        .call(
          { $0.credential(Array("secret".utf8)) },
          [.failed(.loginRefused("the server does not accept LOGIN here (LOGINDISABLED)"))]),
      ])
  }

  @Test func aWrongPasswordIsALoginRefusalWithTheServersText() {
    play(
      { Dovecot.session() },
      [
        .server(Dovecot.greeting, [.needCredential]),
        .call({ $0.credential(Array("wrong\"\\".utf8)) }, [send("a1 LOGIN \"alice\" \"wrong\\\"\\\\\"\r\n")]),
        .server(
          "a1 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n",
          [.failed(.loginRefused("[AUTHENTICATIONFAILED] Authentication failed."))]),
      ])
  }

  @Test(arguments: [
    ("a1 NO [UNAVAILABLE] Temporary authentication failure.\r\n", "[UNAVAILABLE] Temporary authentication failure."),
    ("a1 NO [ALERT] Account locked\r\n", "[ALERT] Account locked"),
    ("a1 NO Go away\r\n", "Go away"),
  ])
  func aLoginRefusalKeepsTheServersCodeBeforeItsText(_ reply: String, _ said: String) {
    play(
      { Dovecot.session() },
      [
        .server(Dovecot.greeting, [.needCredential]),
        .call({ $0.credential(Array("pw".utf8)) }, [send("a1 LOGIN \"alice\" \"pw\"\r\n")]),
        .server(reply, [.failed(.loginRefused(said))]),
      ])
  }

  @Test func anEightBitPasswordWithoutLiteralPlusIsRefused() {
    play(
      { Dovecot.session() },
      [
        .server("* OK [CAPABILITY IMAP4rev1 IDLE] ready\r\n", [.needCredential]),
        .call(
          { $0.credential(Array("pässword".utf8)) },
          [.failed(.violation("a string that cannot be quoted, and the server has no LITERAL+"))]),
      ])
  }

  @Test func xoauth2WithSaslIRAndARefusedTokensChallenge() {
    play(
      { Dovecot.session(auth: .xoauth2) },
      [
        .server(Dovecot.greeting, [.needCredential]),
        .call(
          { $0.credential(Array("good-token".utf8)) },
          [send("a1 AUTHENTICATE XOAUTH2 dXNlcj1hbGljZQFhdXRoPUJlYXJlciBnb29kLXRva2VuAQE=\r\n")]),
        .server("+ eyJzdGF0dXMiOiI0MDEiLCJzY2hlbWVzIjoiYmVhcmVyIiwic2NvcGUiOiJtYWlsIn0=\r\n", [send("\r\n")]),
        .server(
          "a1 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n",
          [.failed(.loginRefused("[AUTHENTICATIONFAILED] Authentication failed."))]),
      ])
  }

  @Test func oauthbearerWithoutSaslIRAnswersTheFirstContinuation() {
    let session = play(
      { Dovecot.session(auth: .oauthbearer(host: "127.0.0.1", port: 10995), mailbox: "INBOX") },
      [
        .server("* OK [CAPABILITY IMAP4rev1 AUTH=OAUTHBEARER] ready\r\n", [.needCredential]),
        .call({ $0.credential(Array("good-token".utf8)) }, [send("a1 AUTHENTICATE OAUTHBEARER\r\n")]),
        .server(
          "+ \r\n",
          [
            send(
              "bixhPWFsaWNlLAFob3N0PTEyNy4wLjAuMQFwb3J0PTEwOTk1AWF1dGg9QmVhcmVyIGdvb2QtdG9rZW4BAQ==\r\n")
          ]),
        .server("a1 " + Dovecot.loggedIn, [send("a2 ENABLE QRESYNC\r\n")]),
      ])
    #expect(session.awaitingReply)
  }

  @Test func preauthSkipsTheLogin() {
    play(
      { Dovecot.session() },
      [
        .server("* PREAUTH [CAPABILITY IMAP4rev1 IDLE] Logged in as alice\r\n", [send("a1 SELECT \"INBOX\"\r\n")])
      ])
  }

  @Test func aByeGreetingFails() {
    play({ Dovecot.session() }, [.server("* BYE Too many connections\r\n", [.failed(.bye("Too many connections"))])])
  }

  @Test func aListingSessionListsSelectableNamesAndLogsOut() {
    var session = play(
      { Dovecot.session(mailbox: nil) },
      [
        .server(Dovecot.greeting, [.needCredential]),
        .call({ $0.credential(Array("secret".utf8)) }, [send("a1 LOGIN \"alice\" \"secret\"\r\n")]),
        .server("a1 " + Dovecot.loggedIn, [send("a2 LIST \"\" \"*\"\r\n")]),
        .server(
          "* LIST (\\HasNoChildren) \".\" INBOX\r\n* LIST (\\HasNoChildren \\Sent) \".\" \"Sent Items\"\r\n"
            + "* LIST (\\Noselect \\HasChildren) \".\" Lists\r\n* LIST (\\HasNoChildren) \".\" {7}\r\nLists.a\r\n"
            + "* LIST (\\HasNoChildren) \".\" \"Re&AOc-u\"\r\na2 OK List completed (0.001 + 0.000 secs).\r\n",
          [.listed(["INBOX", "Sent Items", "Lists.a", "Reçu"]), send("a3 LOGOUT\r\n")]),
        .server("* BYE Logging out\r\na3 OK Logout completed (0.001 + 0.000 secs).\r\n", []),
      ])
    session.closed()
    #expect(session.takeOutput() == [])
  }

  @Test func aReplyToNoCommandIsAViolation() {
    play(
      { Dovecot.session() },
      [
        .server(Dovecot.greeting, [.needCredential]),
        .server("a7 OK what\r\n", [.failed(.violation("a reply to no command (a7)"))]),
      ])
  }

  @Test func theGreetingIsAwaited() {
    var session = Dovecot.session()
    #expect(!session.awaitingReply)
    session.connected()
    #expect(session.awaitingReply)
    Array(Dovecot.greeting.utf8).withUnsafeBytes { session.received($0) }
    #expect(!session.awaitingReply)
    #expect(session.capabilities.contains("AUTH=XOAUTH2"))
  }
}
