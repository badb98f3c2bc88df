import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `exec` sources end to end: the built badged and badged-sources running real commands (shell
/// scripts of the test's own). An interval command's count lands on its channel; a line that
/// is no count leaves the count, makes the channel stale and is logged once however often it
/// runs; a followed command's lines each set the count and its exits are retried with back-off;
/// a run past `timeout_s` is ended with its whole process group.
@Suite struct ExecSourceTests {
  @Test func anIntervalCommandsCountAndAGarbageLineLoggedOnce() throws {
    let folder = try TemporaryFolder()
    let value = try folder.write("value", "7\n")
    let runs = folder.file("runs")
    let command = try folder.script("count", "echo run >> \(runs)\ncat \(value)\n")
    let notify = try DatagramListener(path: folder.file("notify.sock"))
    let stage = try SourcesFixture(
      folder: folder, config: "[source.jobs]\nkind = exec\ncommand = \(command)\ninterval_s = 1\n",
      environment: ["NOTIFY_SOCKET": notify.path])
    try stage.awaitEvent("jobs", count: 7)

    // The next run prints 9.
    try "9\n".write(toFile: value, atomically: true, encoding: .utf8)
    try stage.awaitEvent("jobs", count: 9)

    // Garbage: the count stays, the channel goes stale, the source says why.
    try "hello\n".write(toFile: value, atomically: true, encoding: .utf8)
    try stage.awaitEvent("jobs", count: 9, stale: true)
    let status = try stage.awaitStatus("jobs") { $0.contains(" state=error ") }
    #expect(status.hasSuffix(" error=not a count: 'hello'"), "\(status)")
    // The service manager's status says so too.
    _ = try notify.next { $0.contains("STATUS=Running 1 source: 1 error") }
    // Three runs more, all garbage: still the one line.
    let seen = Self.lines(runs)
    #expect(waitUntil { Self.lines(runs) >= seen + 3 })
    try stage.awaitStatus("jobs") { $0.contains(" state=error ") }
    #expect(stage.logLines(containing: "Source jobs: error: not a count: 'hello'.") == 1, "\(stage.context)")

    // A count again: fresh, and the recovery said once.
    try "4\n".write(toFile: value, atomically: true, encoding: .utf8)
    try stage.awaitEvent("jobs", count: 4)
    #expect(stage.logLines(containing: "Source jobs: counting again after ") == 1, "\(stage.context)")
    _ = try notify.next { $0.contains("STATUS=Running 1 source: 1 ok") }
    #expect(stage.sources.stop() == 0)
  }

  /// A count per line of a followed command; its end retried after 1 s, then 2 s.
  @Test func aFollowedCommandsLinesAndItsRestartsWithBackOff() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("counts")
    #expect(mkfifo(fifo, 0o600) == 0)
    let command = try folder.script("follow", "exec cat \(fifo)\n")
    let stage = try SourcesFixture(
      folder: folder, config: "[source.feed]\nkind = exec\ncommand = \(command)\nfollow = yes\n")

    var writer = try Self.openWriter(fifo, stage)
    try Self.write("3\n", to: writer)
    try stage.awaitEvent("feed", count: 3)
    try Self.write("5\n8\n", to: writer)
    try stage.awaitEvent("feed", count: 8)

    var shown = 8
    for delay in [1000, 2000] {
      let closedAt = Int(Date().timeIntervalSince1970 * 1000)
      close(writer)
      try stage.awaitEvent("feed", count: shown, stale: true)
      let status = try stage.awaitStatus("feed") { $0.contains(" state=retrying ") }
      let retryAt = try #require(field(status, "retry_at").flatMap(Int.init))
      #expect((delay...delay + 1000).contains(retryAt - closedAt), "\(status), closed at \(closedAt)")
      #expect(status.hasSuffix(" error=the command exited"))
      let listed = try badgectl(["sources"], socket: stage.daemon.socket).stdout
      #expect(
        (0...delay / 1000).contains { listed.contains(" retrying in \($0) s (the command exited)\n") }, "\(listed)")
      // Restarted: the command reads the FIFO again.
      writer = try Self.openWriter(fifo, stage)
      try Self.write("\(delay / 1000)\n", to: writer)
      shown = delay / 1000
      try stage.awaitEvent("feed", count: shown)
    }
    close(writer)
    try stage.awaitEvent("feed", count: shown, stale: true)
    // One line per change of state: each of the three exits after a count, each recovery.
    #expect(stage.logLines(containing: "Source feed: the command exited; retrying.") == 3, "\(stage.context)")
    #expect(stage.logLines(containing: "Source feed: counting again after 1 failed attempt.") == 2, "\(stage.context)")
    #expect(stage.sources.stop() == 0)
  }

  /// A run that hangs past `timeout_s`: its process group ended, the source in error.
  @Test func aRunPastItsTimeoutIsEndedWithItsGroup() throws {
    let folder = try TemporaryFolder()
    let pidFile = folder.file("pid")
    let command = try folder.script(
      "hang", "sleep 300 &\necho $$ > \(pidFile).new\nmv \(pidFile).new \(pidFile)\nwait\n")
    let stage = try SourcesFixture(
      folder: folder, config: "[source.slow]\nkind = exec\ncommand = \(command)\ntimeout_s = 1\n")
    #expect(waitUntil { FileManager.default.fileExists(atPath: pidFile) })
    let written = try String(contentsOfFile: pidFile, encoding: .utf8)
    let group = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(ProcFacts.members(ofGroup: group).count == 2, "the script and its sleep")

    let status = try stage.awaitStatus("slow") { $0.contains(" state=error ") }
    #expect(status.hasSuffix(" error=did not finish in time"), "\(status)")
    try stage.awaitEvent("slow", count: 0, stale: true)
    #expect(waitUntil { ProcFacts.members(ofGroup: group).isEmpty }, "\(ProcFacts.members(ofGroup: group))")
    #expect(waitUntil { ProcFacts.children(stage.sources.pid).isEmpty })
    #expect(stage.logLines(containing: "Source slow: error: did not finish in time.") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0)
  }

  /// A program that is not there: the source in error with why, said once however often it
  /// is tried.
  @Test func aCommandThatCannotStartIsOneError() throws {
    let folder = try TemporaryFolder()
    let missing = folder.file("no-such-program")
    // A clock beside it: its count is how many times it ran, a second apart.
    let runs = folder.file("runs")
    let clock = try folder.script("clock", "echo run >> \(runs)\nwc -l < \(runs)\n")
    let stage = try SourcesFixture(
      folder: folder,
      config: "[source.gone]\nkind = exec\ncommand = \(missing)\ninterval_s = 1\n\n"
        + "[source.clock]\nkind = exec\ncommand = \(clock)\ninterval_s = 1\n")
    let status = try stage.awaitStatus("gone") { $0.contains(" state=error ") }
    #expect(status.hasSuffix(" error=Failed to start '\(missing)': No such file or directory"), "\(status)")
    try stage.awaitEvent("gone", count: 0, stale: true)
    // Three seconds on, tried again each second: still the one line.
    try stage.awaitEvent("clock", count: 5)
    #expect(stage.logLines(containing: "Source gone: ") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0)
  }

  /// The lines of the file at `path` (0 when there is none).
  static func lines(_ path: String) -> Int {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  /// Opens `fifo` for writing once a reader has it open (the followed command started).
  static func openWriter(_ fifo: String, _ stage: SourcesFixture) throws -> Int32 {
    var fd: Int32 = -1
    let opened = waitUntil {
      fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      return fd >= 0
    }
    guard opened else {
      throw TestFailure("the followed command never opened \(fifo)\n\(stage.context)")
    }
    return fd
  }

  static func write(_ text: String, to fd: Int32) throws {
    let bytes = Array(text.utf8)
    guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw TestFailure("write: errno \(errno)") }
  }
}
