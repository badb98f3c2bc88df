import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The IMAP source under a server's faults, end to end against dovecot: a restart with mail
/// changed while it was down, its session kicked, a new UIDVALIDITY, logins refused, and the
/// program stopped while the server dropped it. After each the count is exact (the figure
/// worked out from what the test did, and the server's own), the total grew by exactly the
/// messages that arrived, the source was `retrying` with the reason meanwhile (its channel
/// stale at the last count), `ok` after, and the log said each change once.
@Suite struct ImapFaultTests {
  typealias Stage = ImapSourceTests.Stage

  /// dovecot with `m1` … `m<delivered>` unseen in alice's INBOX, and a stage counting it, `ok`;
  /// the total of its first count.
  static func counting(delivered: Int) throws -> (MailServer, Stage, Int) {
    let server = try MailServer()
    for number in 1...delivered { try server.deliver("m\(number)") }
    let stage = try Stage(server, folder: try TemporaryFolder())
    let started = try stage.awaitCount(delivered)
    try ok(stage, count: delivered)
    return (server, stage, started)
  }

  /// The channel's `GET` line now.
  static func channel(_ stage: SourcesStage) throws -> String {
    try stage.daemon.client().request("GET inbox").first ?? ""
  }

  /// Waits until the source is `retrying` with a reason containing `reason` (and `also`
  /// holds of its status line); that line, after checking that the channel is stale at `count`.
  @discardableResult
  static func retrying(
    _ stage: SourcesStage, _ reason: String, count: Int, timeout: Double = 10, also: (String) -> Bool = { _ in true }
  ) throws -> String {
    var last: String?
    let found = try waitUntil(timeout: timeout) {
      last = try SourcesFixture.status(of: "inbox", on: stage.daemon)
      return last.map { $0.contains(" state=retrying ") && $0.contains(reason) && also($0) } ?? false
    }
    guard found, let last else {
      throw TestFailure("never retrying with '\(reason)'; last: \(last ?? "none")\n\(stage.context)")
    }
    let state = try channel(stage)
    #expect(field(state, "stale") == "1" && field(state, "count") == "\(count)", "\(state)\n\(stage.context)")
    return last
  }

  /// Waits until the source is `ok` at `count`.
  static func ok(_ stage: SourcesStage, count: Int) throws {
    try stage.awaitStatus { $0.contains(" state=ok ") && $0.contains(" count=\(count) ") }
  }

  /// Continues the program (SIGCONT, a resume: each connection proves itself alive, or one
  /// waiting to retry tries at once); then, within the resume check's 10 s, the count is the
  /// server's messages `subjects`, fresh, the total grown to `total`, and the source `ok`.
  static func resume(_ stage: Stage, counting subjects: [String], total: Int) throws {
    let resumed = Date()
    stage.sources.signal(SIGCONT)
    #expect(try stage.awaitCount(subjects.count, limit: 4) == total, "\(stage.context)")
    #expect(Date().timeIntervalSince(resumed) < 10)
    try ok(stage, count: subjects.count)
    #expect(try stage.server.unseen().subjects == subjects)
  }

  /// `retry_at=` of a status line, in wall milliseconds.
  static func retryAt(_ status: String) -> Int64? { field(status, "retry_at").flatMap { Int64($0) } }

  static func wallMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

  /// Stops the program (SIGSTOP) and waits until the kernel says it is stopped.
  static func suspend(_ stage: SourcesStage) throws {
    stage.sources.signal(SIGSTOP)
    guard waitUntil({ SourcesResumeTests.state(stage.sources.pid) == "T" }) else {
      throw TestFailure("not stopped\n\(stage.context)")
    }
  }

  /// The program merges the resumes of one suspend: those within 2 s of the last one
  /// (`ResumeDetector.mergeWindow`) are one. Waits until a SIGCONT sent at `last` is past it,
  /// so that the next one is a resume of its own.
  static func pastResumeWindow(since last: Date) {
    Thread.sleep(until: last.addingTimeInterval(2.2))
  }

  @Test func aRestartWithMailChangedWhileTheServerWasDownIsResyncedExactly() throws {
    let (server, stage, started) = try Self.counting(delivered: 3)

    // What stop() sends first, to every process of dovecot's group; it then waits for them.
    kill(-(try #require(server.child).pid), SIGTERM)
    // The first failure is retried at most 1 s after it.
    let first = try Self.retrying(stage, "the server closed the session", count: 3)
    let seen = Self.wallMs()
    #expect((Self.retryAt(first) ?? .max) <= seen + 1000, "\(first)")
    server.stop()
    // dovecot tells a Maildir's changes by its folders' mtimes, in whole seconds: a change in
    // the second of its last look (the source's session may have synced just before the stop)
    // would go unseen by dovecot itself. The changes are made in a second after it.
    let stopped = Date().timeIntervalSince1970
    Thread.sleep(until: Date(timeIntervalSince1970: stopped.rounded(.down) + 1.05))
    // While it is down, an MDA delivers two messages and a local client reads m1.
    try server.place("m4")
    try server.place("m5")
    try server.flagSeenInMaildir("m1")
    try server.restart()
    let back = Self.wallMs()
    let waiting = try #require(try SourcesFixture.status(of: "inbox", on: stage.daemon))
    // The first attempt after the server answers again counts it exactly: within 1 s of the
    // attempt the back-off scheduled (or of the server's return, if that was due already).
    #expect(try stage.awaitCount(4, limit: 4) == started + 2)
    let counted = Self.wallMs()
    let due = max(back, Self.retryAt(waiting) ?? back)
    #expect(counted <= due + 1000, "counted \(counted - due) ms after due; \(waiting)\n\(stage.context)")
    try Self.ok(stage, count: 4)
    #expect(try server.unseen().subjects == ["m2", "m3", "m4", "m5"])
    #expect(stage.sources.logLines(containing: "Source inbox: the server closed the session") == 1, "\(stage.context)")
    // Then the attempts while it was down (refused; or cut short while it was shutting down),
    // each reason said once however many attempts gave it.
    let retries = stage.sources.log.split(separator: "\n").filter { $0.hasSuffix("; retrying.") }
    #expect(retries.count == Set(retries).count, "\(stage.context)")
    #expect(stage.sources.logLines(containing: "Source inbox: counting again after ") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// A kick is a BYE: reconnected at once. Kicked again while logins are refused, the source
  /// stays away while a message is expunged, one read and one delivered; let in again, it
  /// resyncs from its last mod-sequence (QRESYNC, which dovecot announces) and sees all three.
  @Test func aKickedSessionReconnectsAndResyncsWhatChangedMeanwhileWithQresync() throws {
    let (server, stage, started) = try Self.counting(delivered: 3)
    let capabilities = try server.imap(code: "print(M.capability()[1][0].decode())\n")
    #expect(capabilities.contains("QRESYNC"), "\(capabilities)")

    #expect(try server.kick())
    // Back after the first retry (at most 1 s): a delivery is pushed on the new session.
    try Self.retrying(stage, "the server closed the session", count: 3)
    try Self.ok(stage, count: 3)
    try server.deliver("m4")
    #expect(try stage.awaitCount(4, limit: 4) == started + 1)

    try server.refuseLogins(true)
    #expect(try server.kick())
    try Self.retrying(stage, "login refused", count: 4)
    // No client may log in now: the server's administrator expunges m1 and marks m2 read.
    try server.doveadm(["expunge", "-u", MailServer.user, "mailbox", "INBOX", "subject", "m1"])
    try server.doveadm(["flags", "add", "-u", MailServer.user, "\\Seen", "mailbox", "INBOX", "subject", "m2"])
    try server.deliver("m5")
    try server.refuseLogins(false)
    try Self.resume(stage, counting: ["m3", "m4", "m5"], total: started + 2)
    #expect(stage.sources.logLines(containing: "; retrying.") == 3, "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// The folder given a new UIDVALIDITY while the program was stopped, its session kicked, a
  /// message read and two delivered: counted anew, exactly.
  @Test func aNewUIDValidityIsRecountedExactly() throws {
    let (server, stage, started) = try Self.counting(delivered: 3)

    let before = Set(try server.unseenUIDs())
    try Self.suspend(stage)
    try server.uidValidityChange()
    #expect(try server.kick())
    try server.markSeen("m1")
    try server.deliver("m4")
    try server.deliver("m5")
    stage.sources.signal(SIGCONT)
    let total = try stage.awaitCount(4, limit: 4)
    // A message is an item by its UID: those the server numbered anew are new items.
    let after = Set(try server.unseenUIDs())
    #expect(total == started + after.subtracting(before).count, "\(before) \(after)\n\(stage.context)")
    try Self.ok(stage, count: 4)
    #expect(try server.unseen().subjects == ["m2", "m3", "m4", "m5"])
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// Logins refused (a locked account): `retrying` with the server's words, waiting the slow
  /// back-off (30 s, at least half of it), said once in the log however many attempts fail;
  /// let in again, a SIGCONT (a resume) retries at once and the count is exact.
  @Test func refusedLoginsAreSaidOnceAndAResumeRetriesAtOnceWhenTheyAreTakenAgain() throws {
    let (server, stage, started) = try Self.counting(delivered: 2)

    try server.refuseLogins(true)
    #expect(try server.kick())
    var status = try Self.retrying(stage, "login refused: [AUTHENTICATIONFAILED] Authentication failed.", count: 2)
    let now = Self.wallMs()
    #expect(((now + 14_000)...(now + 30_000)).contains(Self.retryAt(status) ?? 0), "\(status)")
    // Two resumes while still refused: each an attempt at once (a new retry time), none logged.
    var resumed = Date.distantPast
    for _ in 0..<2 {
      Self.pastResumeWindow(since: resumed)
      let before = Self.retryAt(status)
      resumed = Date()
      stage.sources.signal(SIGCONT)
      status = try Self.retrying(stage, "login refused", count: 2) { Self.retryAt($0) != before }
    }
    try server.deliver("m3")
    try server.refuseLogins(false)
    Self.pastResumeWindow(since: resumed)
    try Self.resume(stage, counting: ["m1", "m2", "m3"], total: started + 1)
    #expect(
      stage.sources.logLines(
        containing: "Source inbox: login refused: [AUTHENTICATIONFAILED] Authentication failed.; retrying.") == 1,
      "\(stage.context)")
    // The kick's BYE, the first refused login, and the two on resume.
    #expect(
      stage.sources.logLines(containing: "Source inbox: counting again after 4 failed attempts.") == 1,
      "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// Stopped (SIGSTOP, as a suspend stops it) while the server drops its session and mail
  /// arrives and is read: continued, the count is exact within the resume check's 10 s.
  @Test func stoppedWhileTheServerDroppedItsSessionTheCountIsExactWithinTenSecondsOfContinuing() throws {
    let (server, stage, started) = try Self.counting(delivered: 2)

    try Self.suspend(stage)
    #expect(try server.kick())
    try server.deliver("m3")
    try server.deliver("m4")
    try server.markSeen("m1")
    try Self.resume(stage, counting: ["m2", "m3", "m4"], total: started + 2)
    #expect(
      stage.sources.logLines(containing: "<6>Resumed (SIGCONT): recounting every source.") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
