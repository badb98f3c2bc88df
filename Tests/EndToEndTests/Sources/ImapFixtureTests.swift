import Foundation
import Testing

/// The IMAP source's test world, each piece proven with Python's imaplib and ssl before the
/// source's own suites build on it: dovecot with many users, refused logins answered at once,
/// mail delivered, read, expunged and renumbered by the test, sessions kicked, the server
/// restarted on its port, and OAuth2 logins against a token endpoint of the test's own.
@Suite struct ImapFixtureTests {
  /// A Python IDLE client of `user` on `server`: prints `ready` once idling, then every
  /// untagged line the server pushes, until the connection closes.
  static func idleClient(_ server: MailServer, user: String = MailServer.user) throws -> (Child, LineInput) {
    let child = try Child(
      server.launcher + [
        "/usr/bin/python3", "-c",
        """
        import imaplib, ssl, sys
        M = imaplib.IMAP4_SSL(sys.argv[1], int(sys.argv[2]), ssl_context=ssl.create_default_context(cafile=sys.argv[3]))
        M.login(sys.argv[4], sys.argv[5])
        M.select("INBOX")
        M.send(b"t IDLE\\r\\n")
        assert M.readline().startswith(b"+ ")
        print("ready", flush=True)
        while line := M.readline():
            print(line.decode().rstrip(), flush=True)
        """, server.host, String(server.port), server.caFile, user, MailServer.password(of: user),
      ], environment: Child.environment(), stdout: .pipe)
    var input = LineInput(fd: child.output)
    guard try input.next(timeout: 10, what: "IDLE client") == "ready" else {
      throw TestFailure("no IDLE\n\(server.log)")
    }
    return (child, input)
  }

  /// The next line of an IDLE client that satisfies `match`.
  static func next(_ input: inout LineInput, _ match: (String) -> Bool) throws -> String {
    while let line = try input.next(timeout: 10, what: "IDLE client") {
      if match(line) { return line }
    }
    throw TestFailure("the IDLE client's connection closed")
  }

  /// Logs in as `user` with `password`; "OK", or the server's refusal (or the certificate's),
  /// and the seconds it took, the TLS handshake included.
  /// `caFile`: the CA the client trusts (the server's unless told).
  static func login(_ server: MailServer, _ user: String, _ password: String, caFile: String? = nil) throws -> (
    String, Double
  ) {
    let output = try server.python(
      """
      import imaplib, ssl, sys, time
      start = time.monotonic()
      try:
          M = imaplib.IMAP4_SSL(sys.argv[1], int(sys.argv[2]), ssl_context=ssl.create_default_context(cafile=sys.argv[3]))
          M.login(sys.argv[4], sys.argv[5])
          answer = "OK"
      except (imaplib.IMAP4.error, ssl.SSLError) as e:
          answer = str(e)
      print(answer, time.monotonic() - start)
      """, server.host, String(server.port), caFile ?? server.caFile, user, password)
    let words = output.split(separator: " ")
    return (
      words.dropLast().joined(separator: " "),
      Double(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    )
  }

  @Test func manyUsersEachGetTheirOwnMailAndAWrongPasswordIsRefusedAtOnce() throws {
    let server = try MailServer(users: ["alice", "bob"] + MailServer.numbered(10))
    try server.deliver(to: "bob", subject: "for-bob")
    try server.deliver(to: "user10", subject: "for-user10")
    try server.deliver("for-alice")
    #expect(try server.unseen(user: "bob").subjects == ["for-bob"])
    #expect(try server.unseen(user: "user10").subjects == ["for-user10"])
    #expect(try server.unseen().subjects == ["for-alice"])
    // Refused three times in a row, each in well under dovecot's default 2 s, and the right
    // password is taken at once after them.
    for _ in 0..<3 {
      let (answer, seconds) = try Self.login(server, "bob", "wrong")
      #expect(answer.contains("AUTHENTICATIONFAILED") && seconds < 1, "\(answer) \(seconds)")
    }
    let (answer, seconds) = try Self.login(server, "bob", "bob-secret")
    #expect(answer == "OK" && seconds < 0.5, "\(answer) \(seconds)")
    // A client that trusts another CA refuses the server's certificate.
    #expect(
      try Self.login(server, "bob", "bob-secret", caFile: server.otherCAFile).0.contains("CERTIFICATE_VERIFY_FAILED"))
  }

  @Test func anIdleClientSeesDeliveryAnotherClientsSeenAndExpunge() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    #expect(try server.unseenUIDs() == [1, 2])
    var (idle, input) = try Self.idleClient(server)
    try server.deliver("m3")
    #expect(try Self.next(&input) { $0.hasSuffix(" EXISTS") } == "* 3 EXISTS")
    try server.markSeen("m1")
    #expect(try Self.next(&input) { $0.contains("FETCH") }.hasPrefix("* 1 FETCH (FLAGS (\\Seen)"))
    try server.markSeen(uids: [2])
    #expect(try Self.next(&input) { $0.contains("FETCH") }.hasPrefix("* 2 FETCH (FLAGS (\\Seen)"))
    #expect(try server.unseenUIDs() == [3])
    try server.expunge("m2")
    #expect(try Self.next(&input) { $0.hasSuffix(" EXPUNGE") } == "* 2 EXPUNGE")
    // A kick ends the session with a BYE.
    #expect(try server.kick())
    #expect(try Self.next(&input) { $0.hasPrefix("* BYE") }.contains("shutting down"))
    idle.wait()
    #expect(try server.kick() == false)
  }

  @Test func aRestartKeepsThePortAndTheMailAndClosesEverySession() throws {
    let server = try MailServer()
    try server.deliver("m1")
    let port = server.port
    var (idle, input) = try Self.idleClient(server)
    try server.restart()
    // At most a BYE, then the connection closes.
    var lines: [String] = []
    while let line = try input.next(timeout: 10, what: "IDLE client") { lines.append(line) }
    #expect(lines.allSatisfy { $0.hasPrefix("* BYE") }, "\(lines)")
    idle.wait()
    #expect(server.port == port)
    // The first login after the restart is not held up (the anvil penalty socket is made anew).
    let (answer, seconds) = try Self.login(server, "alice", "alice-secret")
    #expect(answer == "OK" && seconds < 0.5, "\(answer) \(seconds)")
    #expect(try server.unseen().subjects == ["m1"])
  }

  @Test func refusedLoginsComeAndGoWithoutARestartAndTheUIDValidityChanges() throws {
    let server = try MailServer()
    try server.deliver("m1")
    let before = try server.uidValidity()
    try server.refuseLogins(true)
    #expect(try Self.login(server, "alice", "alice-secret").0.contains("AUTHENTICATIONFAILED"))
    try server.refuseLogins(false)
    #expect(try Self.login(server, "alice", "alice-secret").0 == "OK")
    #expect(try server.uidValidityChange() == before + 1)
    #expect(try server.uidValidity() == before + 1)
    #expect(try server.unseenUIDs() == [1])
  }

  @Test func oauthTokensAreCheckedByTheTestsEndpointAndExpireWhenItSays() throws {
    let server = try MailServer(oauth: true)
    let endpoint = try #require(server.oauth)
    try endpoint.accept(["good-token": "alice"])
    let script = """
      import imaplib, ssl, sys
      host, port, ca, mech, token = sys.argv[1:6]
      M = imaplib.IMAP4_SSL(host, int(port), ssl_context=ssl.create_default_context(cafile=ca))
      blob = (f"user=alice\\x01auth=Bearer {token}\\x01\\x01" if mech == "XOAUTH2"
              else f"n,a=alice,\\x01host={host}\\x01port={port}\\x01auth=Bearer {token}\\x01\\x01")
      try:
          print(M.authenticate(mech, lambda _: blob.encode())[0])
      except imaplib.IMAP4.error as e:
          print(e)
      """
    func login(_ mechanism: String, _ token: String) throws -> String {
      try server.python(script, server.host, String(server.port), server.caFile, mechanism, token)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try login("XOAUTH2", "good-token") == "OK")
    #expect(try login("OAUTHBEARER", "good-token") == "OK")
    try endpoint.accept(["fresh-token": "alice"])
    #expect(try login("XOAUTH2", "good-token").contains("AUTHENTICATIONFAILED"))
    #expect(try login("OAUTHBEARER", "fresh-token") == "OK")
    // Passwords still work beside the tokens.
    #expect(try Self.login(server, "alice", "alice-secret").0 == "OK")
    #expect(endpoint.log.contains("introspect good-token -> refused"))
  }
}

/// The Secret Service fixture: a real gnome-keyring-daemon on a private bus, reached by a child
/// process through the environment it hands out, and gone, bus and all, when it stops.
@Suite struct SecretServiceFixtureTests {
  @Test func aStoredPasswordIsFoundByAChildAndNoDaemonOutlivesTheSession() throws {
    let session = try SecretServiceSession()
    try session.store(attributes: [("service", "imap"), ("user", "alice")], secret: "alice-secret")
    #expect(try session.lookup(attributes: [("service", "imap"), ("user", "alice")]) == "alice-secret")
    #expect(try session.lookup(attributes: [("service", "imap"), ("user", "bob")]) == nil)
    // A child process that inherits the environment finds it as a password_command would.
    let child = try run(
      "/bin/sh", ["-c", "secret-tool lookup service imap user alice"], environment: session.environment)
    #expect(child.stdout == "alice-secret")
    let daemons = [try #require(session.keyringPID), try #require(session.bus.pid)]
    session.stop()
    #expect(daemons.allSatisfy { !FileManager.default.fileExists(atPath: "/proc/\($0)") })
  }
}

/// The hostile IMAP server: a raw client logs in, selects and idles, then reads at most 1 MiB
/// or for 2 s, and sees exactly the misbehaviour asked for, at the step asked for.
@Suite struct HostileImapServerTests {
  /// What a raw client saw after `IDLE` (or from the start, for `.greeting`): the first bytes,
  /// how many it read, whether a line ended among them, and whether the server closed.
  struct Seen: Decodable {
    let head: String
    let bytes: Int
    let lineEnded: Bool
    let closed: Bool
  }

  static func look(_ server: HostileImapServer, from step: HostileImapServer.Step) throws -> Seen {
    let result = try run(
      "python3",
      [
        "-c",
        """
        import json, socket, sys
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        data = b""
        if sys.argv[2] != "greeting":
            while b"\\r\\n" not in data:
                data += s.recv(65536)
            assert data.startswith(b"* OK "), data
            s.sendall(b"a LOGIN u p\\r\\nb SELECT INBOX\\r\\nc IDLE\\r\\n")
            while b"+ idling\\r\\n" not in data:
                data += s.recv(65536)
            data = data.split(b"+ idling\\r\\n", 1)[1]
        s.settimeout(2)
        closed = False
        try:
            while len(data) < 1 << 20:
                chunk = s.recv(65536)
                if not chunk:
                    closed = True
                    break
                data += chunk
        except socket.timeout:
            pass
        s.close()
        print(json.dumps({"head": data[:60].decode(), "bytes": len(data), "lineEnded": b"\\r\\n" in data,
                          "closed": closed}))
        """, String(server.port), step.rawValue,
      ])
    guard result.status == 0 else { throw TestFailure("client failed: \(result.stderr)\n\(server.log)") }
    return try JSONDecoder().decode(Seen.self, from: Data(result.stdout.utf8))
  }

  @Test(arguments: HostileImapServer.Misbehaviour.allCases)
  func aRawClientSeesTheMisbehaviourOnIdle(_ misbehaviour: HostileImapServer.Misbehaviour) throws {
    let server = try HostileImapServer(misbehaviour)
    let seen = try Self.look(server, from: .idle)
    switch misbehaviour {
    case .hugeLiteral:
      #expect(seen.head.hasPrefix("* 1 FETCH (BODY[] {104857600}\r\nxxxx") && seen.bytes >= 1 << 20 && !seen.closed)
      // The server streams until the client hangs up, and says how far it got.
      #expect(waitUntil { server.bytesReadBeforeClose != nil })
      #expect((server.bytesReadBeforeClose ?? .max) < 104_857_600)
    case .endlessLine:
      #expect(seen.head.hasPrefix("* OK xxxx") && seen.bytes >= 1 << 20 && !seen.lineEnded)
    case .unknownResponses:
      #expect(seen.head.hasPrefix("* XYZZY\r\n* 1 FROB (QUUX {3}\r\nbar ZOT)") && !seen.closed)
    case .bye:
      #expect(seen.head == "* BYE Going away at idle\r\n" && seen.closed)
    case .stuck:
      #expect(seen.bytes == 0 && !seen.closed)
    case .closeMidLine:
      #expect(seen.head == "* 3 EXI" && seen.closed)
    }
    #expect(server.log.contains("misbehaving \(misbehaviour.rawValue) at idle"), "\(server.log)")
  }

  @Test func aByeInPlaceOfTheGreeting() throws {
    let server = try HostileImapServer(.bye, at: .greeting)
    let seen = try Self.look(server, from: .greeting)
    #expect(seen.head == "* BYE Going away at greeting\r\n" && seen.closed)
  }
}

/// dovecot in a namespace of its own, reached from a client namespace over a link the test cuts
/// and heals; the certificate is checked against the server's address.
@Suite struct NetworkedMailServerTests {
  /// An IMAPS login from the client's namespace, the certificate checked against the address:
  /// "OK", or the error's text.
  static func login(_ network: NetworkedMailServer) throws -> String {
    let command =
      network.client.launcher + [
        "python3", "-c",
        """
        import imaplib, ssl, sys
        try:
            M = imaplib.IMAP4_SSL(sys.argv[1], int(sys.argv[2]), ssl_context=ssl.create_default_context(cafile=sys.argv[3]),
                                  timeout=5)
            print(M.login("alice", "alice-secret")[0])
        except OSError as e:
            print(e.strerror or e)
        """, NetworkedMailServer.serverAddress, String(network.server.port), network.server.caFile,
      ]
    return try run(command[0], Array(command.dropFirst())).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func theClientReachesTheServerUntilTheLinkIsCutAndAgainOnceHealed() throws {
    let network = try NetworkedMailServer(oauth: true)
    try network.server.deliver("m1")
    #expect(try network.server.unseen().subjects == ["m1"])
    #expect(try Self.login(network) == "OK")
    try network.cut()
    #expect(try Self.login(network) == "Network is unreachable")
    try network.heal()
    #expect(try Self.login(network) == "OK")
    // The token endpoint lives in the server's namespace, where dovecot's auth process asks it.
    let endpoint = try #require(network.server.oauth)
    try endpoint.accept(["ns-token": "alice"])
    let login = try network.server.python(
      """
      import imaplib, ssl, sys
      M = imaplib.IMAP4_SSL(sys.argv[1], int(sys.argv[2]), ssl_context=ssl.create_default_context(cafile=sys.argv[3]))
      print(M.authenticate("XOAUTH2", lambda _: b"user=alice\\x01auth=Bearer ns-token\\x01\\x01")[0])
      """, network.server.host, String(network.server.port), network.server.caFile)
    #expect(login == "OK\n")
  }
}
