import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// badged-sources stopped (SIGSTOP, as a suspend stops it) while its Maildir changes, then
/// continued: it recounts at once (its SIGCONT handler, logged) and the count is exact, also
/// when the changes were more than its inotify queue holds (`fs.inotify.max_queued_events`),
/// whose overflow it reports and recounts on.
@Suite struct SourcesResumeTests {
  /// The state letter of `/proc/<pid>/stat` (`T` when stopped).
  static func state(_ pid: Int32) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ").first?.first
  }

  /// Stops the program and waits until the kernel says it is stopped.
  static func stop(_ stage: SourcesFixture) throws {
    stage.sources.signal(SIGSTOP)
    guard waitUntil({ state(stage.sources.pid) == "T" }) else { throw TestFailure("not stopped\n\(stage.context)") }
  }

  @Test func deliveriesAndAReadWhileStoppedAreRecountedOnContinue() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    let stage = try SourcesFixture.counting(&maildir, in: folder, delivered: 2)

    try Self.stop(stage)
    var names: [String] = []
    for _ in 0..<3 { names.append(try maildir.deliver()) }
    try maildir.rename(from: "new/" + names[1], to: "cur/" + names[1] + ":2,S")
    #expect(try maildir.unread() == 4)
    stage.sources.signal(SIGCONT)
    try stage.awaitEvent("inbox", count: 4)
    #expect(
      waitUntil { stage.logLines(containing: "<6>Resumed (SIGCONT): recounting every source.") == 1 },
      "\(stage.context)")
    try stage.awaitStatus("inbox") { $0.contains(" state=ok ") && $0.contains(" count=4 ") }
    #expect(stage.sources.stop() == 0)
  }

  /// More files made while stopped than the inotify queue holds: the queue overflows, and the
  /// count is exact after all.
  @Test func aFloodPastTheInotifyQueueWhileStoppedIsRecounted() throws {
    let limit =
      Int(
        (try String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 16384
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    let stage = try SourcesFixture.counting(&maildir, in: folder, delivered: 1)

    try Self.stop(stage)
    let flood = limit + 100
    for index in 0..<flood {
      let fd = open("\(maildir.root)/new/\(index).flood", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw TestFailure("create: errno \(errno)") }
      close(fd)
    }
    stage.sources.signal(SIGCONT)
    try stage.awaitEvent("inbox", count: flood + 1, timeout: 30)
    #expect(
      waitUntil { stage.logLines(containing: "Source inbox: missed changes (the inotify queue overflowed)") == 1 },
      "\(stage.context)")
    try maildir.deliver()
    try stage.awaitEvent("inbox", count: flood + 2)
    #expect(stage.sources.stop() == 0)
  }
}
