import Foundation

/// What the tests do to a `MailServer` as its administrator: end sessions, refuse logins, give
/// a mailbox a new UIDVALIDITY, through dovecot's own `doveadm` and its passwd-file.
extension MailServer {
  /// Ends every IMAP session of `user` (`doveadm kick`): each client reads `* BYE` and the
  /// connection closes. Whether a session was there to end.
  @discardableResult
  func kick(_ user: String = MailServer.user) throws -> Bool {
    let result = try doveadm(["kick", user], allowing: [68])
    return result.status == 0
  }

  /// With `on`, every password login is refused from the next one on (`[AUTHENTICATIONFAILED]`),
  /// as a server whose account was locked; off again, they succeed. dovecot rereads its
  /// passwd-file when it changes (no restart, sessions already open stay), but looks at most
  /// once a second: this returns once its auth process answers a test login the new way.
  func refuseLogins(_ on: Bool) throws {
    let lines = on ? [] : users.map { "\($0):{PLAIN}\(Self.password(of: $0))::::::\n" }
    // Written beside and renamed over, so dovecot never reads half a file.
    let staged = try folder.write("passwd.new", lines.joined())
    guard rename(staged, folder.file("passwd")) == 0 else { throw TestFailure("rename passwd: errno \(errno)") }
    guard child != nil else { return }
    let user = users[0]
    let taken = try waitUntil {
      let test = try doveadm(["auth", "test", "-x", "service=imap", user, Self.password(of: user)], allowing: [77])
      return (test.status == 0) != on
    }
    guard taken else { throw TestFailure("dovecot did not reread its passwd-file\n\(log)") }
  }

  /// Gives `user`'s INBOX a new UIDVALIDITY (one more than now), its messages and flags kept:
  /// a client that comes back must count it all again. Sessions open on it are not told: kick
  /// them for the clients to reconnect. The new UIDVALIDITY.
  @discardableResult
  func uidValidityChange(user: String = MailServer.user) throws -> UInt32 {
    let next = try uidValidity(user: user) &+ 1
    try doveadm(["mailbox", "update", "-u", user, "--uid-validity", String(next), "INBOX"])
    return next
  }

  /// Runs `doveadm` against this server; throws unless it exits 0 (or a status in `allowing`).
  @discardableResult
  func doveadm(_ arguments: [String], allowing: Set<Int32> = []) throws -> CtlResult {
    let result = try run("doveadm", ["-c", folder.file("dovecot.conf")] + arguments)
    guard result.status == 0 || allowing.contains(result.status) else {
      throw TestFailure("doveadm \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }
    return result
  }
}
