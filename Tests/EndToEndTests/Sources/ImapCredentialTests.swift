import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The IMAP source's credentials against dovecot over TLS, each way users keep them: a
/// password command, a password file, the Secret Service of a real gnome-keyring, OAuth2 tokens
/// with XOAUTH2 and OAUTHBEARER checked by dovecot's `oauth2` passdb. A failing one puts the
/// source in `retrying` with a reason that says what to mend, logged once however often it is
/// tried again (a SIGCONT makes a waiting connection try at once); mended, the count is exact.
@Suite struct ImapCredentialTests {
  /// A stage on `server`'s INBOX over IMAPS, its CA trusted.
  static func stage(
    _ server: MailServer, _ folder: TemporaryFolder, credential: String, more: String = "",
    environment: [String: String] = [:]
  ) throws -> ImapStage {
    try ImapStage(
      folder: folder, server: "imaps://localhost:\(server.port)", credential: credential, caFile: server.caFile,
      more: more, environment: environment
    ) { server.log }
  }

  /// A shell script in `folder` that appends a line to `runs` each time it is run, then runs
  /// `body`: the command that runs it. Run by `/bin/sh` rather than executed itself: a file
  /// just written may still be open for writing in a child another test is starting (ETXTBSY).
  static func script(in folder: TemporaryFolder, _ name: String, runs: String, _ body: String) throws -> String {
    "/bin/sh " + (try folder.write(name, "echo run >> '\(runs)'\n\(body)\n"))
  }

  /// How many lines `path` holds (0 when it does not exist).
  static func lines(_ path: String) -> Int {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  /// SIGCONT: the program takes it for a resume, and every connection waiting to retry tries
  /// at once; returns once it logged the resume.
  static func retryNow(_ stage: ImapStage) throws {
    stage.sources.signal(SIGCONT)
    guard waitUntil({ stage.logLines(containing: "Resumed (SIGCONT)") == 1 }) else {
      throw TestFailure("no resume logged\n\(stage.context)")
    }
  }

  @Test func aPasswordCommandsPasswordLogsIn() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    let folder = try TemporaryFolder()
    let runs = folder.file("runs")
    let command = try Self.script(in: folder, "password", runs: runs, "echo '\(MailServer.password)'")
    let stage = try Self.stage(server, folder, credential: "password_command = \(command)")
    _ = try stage.awaitCount(2, limit: 2)
    let status = try stage.awaitStatus { $0.contains(" state=ok ") }
    #expect(status.contains(" count=2"), "\(status)")
    // Asked once, for the one login.
    #expect(Self.lines(runs) == 1)
    try stage.stop()
  }

  @Test func aPasswordCommandThatFailsIsNamedWithItsWordsOnceHoweverOftenItIsTried() throws {
    let server = try MailServer()
    try server.deliver("m1")
    let folder = try TemporaryFolder()
    let runs = folder.file("runs")
    let command = try Self.script(in: folder, "password", runs: runs, "echo 'the vault is locked' >&2\nexit 1")
    let stage = try Self.stage(server, folder, credential: "password_command = \(command)")
    let first = try stage.awaitRetrying()
    let reason = "'\(command)' exited with status 1: the vault is locked"
    #expect(first.hasSuffix("error=\(reason)") && first.contains(" count=0 "), "\(first)\n\(stage.context)")
    #expect(Self.lines(runs) == 1)
    // Tried again at once: the same reason, run again, logged no more.
    try Self.retryNow(stage)
    #expect(waitUntil { Self.lines(runs) == 2 }, "\(stage.context)")
    let second = try stage.awaitStatus {
      $0.contains(" state=retrying ") && field($0, "retry_at") != field(first, "retry_at")
    }
    #expect(second.hasSuffix("error=\(reason)"), "\(second)")
    #expect(stage.logLines(containing: "\(reason); retrying.") == 1, "\(stage.context)")
    #expect(!server.log.contains("Login:"), "never logged in\n\(server.log)")
    try stage.stop()
  }

  @Test func aPasswordFileOthersMayReadIsRefusedUntilChmod600() throws {
    let server = try MailServer()
    try server.deliver("m1")
    let folder = try TemporaryFolder()
    let credential = try ImapStage.passwordFile(in: folder, MailServer.password, mode: 0o644)
    let path = folder.file("password")
    let stage = try Self.stage(server, folder, credential: credential)
    let status = try stage.awaitRetrying()
    #expect(
      status.hasSuffix("error=password_file '\(path)' is readable by others (mode 0644); chmod 600 it"),
      "\(status)\n\(stage.context)")
    #expect(stage.logLines(containing: "is readable by others") == 1)
    // Nothing was sent: the password never left the file.
    #expect(!server.log.contains("Login:"), "\(server.log)")
    // Mended, the next attempt logs in and counts.
    chmod(path, 0o600)
    try Self.retryNow(stage)
    // Past the claim's 0, its stale 0 while retrying, and a fresh 0 when the source's ok
    // reaches badged before the first write of a source that never counted (SourcesCore
    // writes only counted sources' channels, after their status).
    _ = try stage.awaitCount(1, limit: 4)
    #expect(try stage.awaitStatus { $0.contains(" state=ok ") }.contains(" count=1 "))
    #expect(stage.logLines(containing: "counting again after 1 failed attempt") == 1, "\(stage.context)")
    try stage.stop()
  }

  @Test func aWrongPasswordIsRetryingWithDovecotsWordsLoggedOnce() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    let folder = try TemporaryFolder()
    let stage = try Self.stage(server, folder, credential: try ImapStage.passwordFile(in: folder, "wrong"))
    let first = try stage.awaitRetrying()
    #expect(first.contains("error=login refused: [AUTHENTICATIONFAILED] Authentication failed."), "\(first)")
    #expect(first.contains(" count=0 "), "\(first)")
    let refusals = { server.log.components(separatedBy: "auth failed").count - 1 }
    #expect(waitUntil { refusals() == 1 }, "\(server.log)")
    try Self.retryNow(stage)
    #expect(waitUntil { refusals() == 2 }, "\(server.log)")
    _ = try stage.awaitStatus { $0.contains(" state=retrying ") && field($0, "retry_at") != field(first, "retry_at") }
    #expect(stage.logLines(containing: "AUTHENTICATIONFAILED") == 1, "\(stage.context)")
    try stage.stop()
  }

  @Test func theSecretServiceOfARealKeyringGivesThePassword() throws {
    let keyring = try SecretServiceSession()
    try keyring.store(attributes: [("service", "imap"), ("user", "alice")], secret: MailServer.password)
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    try server.deliver("m3")
    let stage = try Self.stage(
      server, try TemporaryFolder(), credential: "password_secret = service=imap user=alice",
      environment: keyring.environment)
    _ = try stage.awaitCount(3, limit: 2)
    #expect(try stage.awaitStatus { $0.contains(" state=ok ") }.contains(" count=3 "))
    try server.deliver("m4")
    _ = try stage.awaitCount(4, limit: 1)
    try stage.stop()
  }

  @Test func aMissingSecretIsRetryingNamingItsAttributes() throws {
    let keyring = try SecretServiceSession()
    let server = try MailServer()
    let stage = try Self.stage(
      server, try TemporaryFolder(), credential: "password_secret = service=imap user=nobody",
      environment: keyring.environment)
    let status = try stage.awaitRetrying()
    #expect(status.hasSuffix("error=no secret found for service=imap user=nobody"), "\(status)\n\(keyring.log)")
    try stage.stop()
  }

  /// A token command that prints the token file the test writes.
  static func tokenStage(_ server: MailServer, mechanism: String, token: String) throws -> (ImapStage, String) {
    let folder = try TemporaryFolder()
    let tokenFile = try folder.write("token", token + "\n")
    let stage = try Self.stage(
      server, folder, credential: "oauth2_token_command = /bin/cat \(tokenFile)",
      more: "oauth2_mechanism = \(mechanism)")
    return (stage, tokenFile)
  }

  @Test(arguments: ["xoauth2", "oauthbearer"])
  func anOAuthTokenLogsInAndAnExpiredOneIsReplacedAtTheNextLogin(_ mechanism: String) throws {
    let server = try MailServer(oauth: true)
    let endpoint = try #require(server.oauth)
    try endpoint.accept(["token-1": "alice"])
    try server.deliver("m1")
    try server.deliver("m2")
    let (stage, tokenFile) = try Self.tokenStage(server, mechanism: mechanism, token: "token-1")
    _ = try stage.awaitCount(2, limit: 2)
    #expect(try stage.awaitStatus { $0.contains(" state=ok ") }.contains(" count=2 "))
    #expect(endpoint.log.contains("introspect token-1 -> alice"), "\(endpoint.log)")
    // The token expires and its helper has a new one; the server ends the session. The next
    // login asks the command again and logs in with the new token, the old one never retried.
    try endpoint.accept(["token-2": "alice"])
    try "token-2\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
    #expect(try server.kick())
    #expect(waitUntil { endpoint.log.contains("introspect token-2 -> alice") }, "\(endpoint.log)")
    #expect(!endpoint.log.contains("introspect token-1 -> refused"), "\(endpoint.log)")
    // Logged in again: a delivery is counted on the new session, past the stale 2 while it
    // reconnected and the fresh 2 once it had.
    try server.deliver("m3")
    _ = try stage.awaitCount(3, limit: 3)
    #expect(try stage.awaitStatus { $0.contains(" state=ok ") }.contains(" count=3 "))
    let method = mechanism.uppercased()
    #expect(server.log.contains("method=\(method)"), "\(server.log)")
    try stage.stop()
  }

  @Test(arguments: ["xoauth2", "oauthbearer"])
  func aRefusedTokenIsRetryingWithTheServersWords(_ mechanism: String) throws {
    let server = try MailServer(oauth: true)
    let endpoint = try #require(server.oauth)
    try endpoint.accept(["another-token": "alice"])
    let (stage, _) = try Self.tokenStage(server, mechanism: mechanism, token: "stale-token")
    let status = try stage.awaitRetrying()
    #expect(status.contains("error=login refused: [AUTHENTICATIONFAILED]"), "\(status)\n\(stage.context)")
    #expect(endpoint.log.contains("introspect stale-token -> refused"), "\(endpoint.log)")
    #expect(stage.logLines(containing: "AUTHENTICATIONFAILED") == 1, "\(stage.context)")
    try stage.stop()
  }
}
