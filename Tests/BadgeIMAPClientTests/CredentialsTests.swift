import BadgeIMAPClient
import Foundation
import Testing

/// Password files and password commands, for real: files with their modes, commands that
/// print, fail, print nothing, too much, or hang.
@Suite struct CredentialsTests {
  @Test func aPasswordFileGivesItsFirstLine() throws {
    let folder = try TestFolder("imap-credentials")
    let path = try folder.write("password", "s3cret word\nsecond line\n")
    #expect(try Credentials.passwordFile(path) == Array("s3cret word".utf8))
    let noNewline = try folder.write("bare", "bare")
    #expect(try Credentials.passwordFile(noNewline) == Array("bare".utf8))
  }

  @Test(arguments: [(0o644, "0644"), (0o640, "0640"), (0o604, "0604"), (0o610, "0610")])
  func aPasswordFileOthersCanReachIsRefused(mode: Int, written: String) throws {
    let folder = try TestFolder("imap-credentials")
    let path = try folder.write("password", "s3cret\n", mode: mode)
    #expect(throws: CredentialError.fileOpenToOthers(path: path, mode: UInt32(0o100000 | mode))) {
      try Credentials.passwordFile(path)
    }
    #expect(
      CredentialError.fileOpenToOthers(path: path, mode: UInt32(0o100000 | mode)).description
        == "password_file '\(path)' is readable by others (mode \(written)); chmod 600 it")
  }

  @Test func aMissingOrEmptyPasswordFileIsRefused() throws {
    let folder = try TestFolder("imap-credentials")
    let missing = folder.file("missing")
    #expect(
      throws: CredentialError.fileUnreadable(path: missing, reason: "No such file or directory")
    ) { try Credentials.passwordFile(missing) }
    #expect(
      CredentialError.fileUnreadable(path: missing, reason: "No such file or directory").description
        == "cannot read password_file '\(missing)': No such file or directory")
    let empty = try folder.write("empty", "\nsecond\n", mode: 0o400)
    #expect(throws: CredentialError.fileEmpty(path: empty)) { try Credentials.passwordFile(empty) }
  }

  @Test func aCommandGivesTheFirstLineItPrints() throws {
    #expect(try Credentials.command(["printf", "token-1\\nmore\\n"], timeoutMs: 5000) == Array("token-1".utf8))
    #expect(try Credentials.command(["printf", "no line feed"], timeoutMs: 5000) == Array("no line feed".utf8))
  }

  @Test func aCommandGetsOnlyTheKeptEnvironment() throws {
    setenv("BADGED_TEST_LEAK", "leaked", 1)
    defer { unsetenv("BADGED_TEST_LEAK") }
    let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
    let printed = try Credentials.command(
      ["sh", "-c", "printf '%s|%s\\n' \"${BADGED_TEST_LEAK:-none}\" \"$HOME\""], timeoutMs: 5000)
    #expect(String(decoding: printed, as: UTF8.self) == "none|\(home)")
  }

  @Test func aFailingCommandIsNamedWithWhatItSaid() throws {
    #expect(
      throws: CredentialError.commandFailed(
        command: "sh -c echo 'gpg: decryption failed' >&2; echo more >&2; exit 1",
        reason: "exited with status 1: gpg: decryption failed")
    ) {
      try Credentials.command(
        ["sh", "-c", "echo 'gpg: decryption failed' >&2; echo more >&2; exit 1"], timeoutMs: 5000)
    }
    #expect(
      CredentialError.commandFailed(command: "pass show mail", reason: "exited with status 1: gpg: decryption failed")
        .description == "'pass show mail' exited with status 1: gpg: decryption failed")
    #expect(throws: CredentialError.commandFailed(command: "true", reason: "printed nothing")) {
      try Credentials.command(["true"], timeoutMs: 5000)
    }
    #expect(
      throws: CredentialError.commandFailed(
        command: "/nonexistent/helper", reason: "cannot start: No such file or directory")
    ) { try Credentials.command(["/nonexistent/helper"], timeoutMs: 5000) }
  }

  @Test func aCommandPrintingTooMuchIsRefused() throws {
    #expect(throws: CredentialError.commandFailed(command: "yes", reason: "printed more than 4096 bytes")) {
      try Credentials.command(["yes"], timeoutMs: 5000)
    }
  }

  /// The command and what it started are killed at the timeout: the grandchild holding the
  /// output pipe open does not keep the call waiting, and is gone after it.
  @Test func aCommandOutlivingItsTimeoutIsKilledWithItsGroup() throws {
    let folder = try TestFolder("imap-credentials")
    let pidFile = folder.file("sleeper")
    let start = ContinuousClock.now
    #expect(
      throws: CredentialError.commandTimedOut(command: "sh -c sleep 30 & echo $! > \(pidFile); wait", timeoutMs: 1000)
    ) {
      try Credentials.command(["sh", "-c", "sleep 30 & echo $! > \(pidFile); wait"], timeoutMs: 1000)
    }
    #expect(ContinuousClock.now - start < .seconds(5))
    let sleeper = try #require(
      pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    // SIGKILL to the group ends it as soon as the kernel runs it: dead is gone from /proc or a
    // zombie there (its parent, the shell, died too; init collects it).
    #expect(Self.dies(sleeper))
    #expect(
      CredentialError.commandTimedOut(command: "pass show mail", timeoutMs: 10000).description
        == "'pass show mail' did not finish within 10000 ms")
  }

  /// Whether `pid` is dead (gone, or a zombie) within 5 s, looked at every 10 ms.
  static func dies(_ pid: pid_t) -> Bool {
    for _ in 0..<500 {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
      if stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return true }
      usleep(10_000)
    }
    return false
  }
}
