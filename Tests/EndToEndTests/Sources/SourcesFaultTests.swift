import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// badged-sources under faults, end to end: a config it cannot use (at start: exit 78 with its
/// place; at SIGHUP: refused, every source counting on as it was), reloads that add and remove
/// sources, a Maildir removed, replaced by a file and made again, the daemon killed with
/// SIGKILL and started again, and another program's write to a source's channel. Every count
/// checked is the one worked out from the folder itself.
@Suite struct SourcesFaultTests {
  static func inbox(_ maildir: TestMaildir, _ more: String = "") -> String { SourcesFixture.inbox(maildir, more) }

  @Test func aConfigItCannotUseAtStartExits78WithItsPlace() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let config = try folder.write("sources.conf", "[source.inbox]\nkind = maildir\nfodlers = INBOX\npath = ~/Mail\n")
    let result = try run(Binaries.badgedSources.path, ["--config", config, "--socket", folder.file("none.sock")])
    #expect(result.status == 78)
    #expect(result.stderr.hasPrefix("<3>Failed to load configuration: \(config):3: "), "\(result.stderr)")
    #expect(result.stderr.contains("'fodlers'"), "\(result.stderr)")
  }

  /// Reloads refused (a bad key, two sources on one channel) change nothing; accepted ones
  /// start and stop sources, and a stopped source's channel is an ordinary channel again.
  @Test func reloadsRefusedKeepTheSourcesAndAcceptedOnesAddAndRemove() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    for _ in 0..<2 { try maildir.deliver() }
    let queue = folder.file("queue")
    try FileManager.default.createDirectory(atPath: queue, withIntermediateDirectories: true)
    for name in ["a", "b", "c"] { _ = FileManager.default.createFile(atPath: queue + "/" + name, contents: nil) }
    let stage = try SourcesFixture(folder: folder, config: Self.inbox(maildir))
    try stage.awaitEvent("inbox", count: 2)

    // Refused: the line's fault logged, the source still counting, badgectl shows the refusal.
    try stage.reload(Self.inbox(maildir, "fodlers = INBOX\n"))
    #expect(
      stage.logLines(containing: "Reload refused, the sources run on as they were: \(stage.config):4: ") == 1,
      "\(stage.context)")
    try maildir.deliver()
    try stage.awaitEvent("inbox", count: 3)
    let refusal = try stage.daemon.client().request("SOURCES").first ?? ""
    #expect(refusal.contains(" config_error=\(stage.config):4: "), "\(refusal)")

    // Two sources on one channel: refused with both lines.
    try stage.reload(Self.inbox(maildir, "\n[source.other]\nkind = files\npath = \(queue)\nchannel = inbox\n"))
    #expect(stage.logLines(containing: "Channel 'inbox' of ") == 1, "\(stage.context)")
    try maildir.deliver()
    try stage.awaitEvent("inbox", count: 4)

    // Accepted, adding a source: it counts; the refusal is gone.
    let twoSources = Self.inbox(maildir, "\n[source.queue]\nkind = files\npath = \(queue)\n")
    try stage.reload(twoSources)
    try stage.awaitEvent("queue", count: 3)
    #expect(try stage.awaitStatus("queue") { $0.contains(" state=ok ") }.contains(" kind=files "))
    #expect(try stage.daemon.client().request("SOURCES").first?.contains("config_error") == false)
    // Another program's counting write to a source's channel is refused and changes nothing.
    let set = try badgectl(["set", "queue", "9"], socket: stage.daemon.socket)
    #expect(set.status != 0)
    #expect(set.stderr.contains("'queue' is counted by source 'queue'; CLEAR and SEEN work"), "\(set.stderr)")
    #expect(try stage.daemon.client().request("GET queue").first.flatMap { field($0, "count") } == "3")

    // Accepted, removing it: its channel set to 0 and released, no longer anyone's.
    try stage.reload(Self.inbox(maildir))
    #expect(
      waitUntil {
        let state = (try? stage.daemon.client().request("GET queue").first) ?? ""
        return field(state, "count") == "0" && field(state, "source") == nil
      }, "\(stage.context)")
    // Its last report leaves the listing (`SOURCE queue stopped`).
    #expect(try stage.status(of: "queue") == nil, "\(stage.context)")
    #expect(try badgectl(["set", "queue", "9"], socket: stage.daemon.socket).status == 0)
    try maildir.deliver()
    try stage.awaitEvent("inbox", count: 5)
    #expect(stage.sources.stop() == 0)
  }

  /// A source removed from the file while badged-sources was not running: at the next start its
  /// channel, which the daemon kept claimed and stale, is written 0 and is an ordinary channel.
  @Test func aSourceRemovedWhileTheProgramWasDownIsReleasedAtItsNextStart() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    try maildir.deliver()
    let queue = folder.file("queue")
    try FileManager.default.createDirectory(atPath: queue, withIntermediateDirectories: true)
    for name in ["a", "b"] { _ = FileManager.default.createFile(atPath: queue + "/" + name, contents: nil) }
    let stage = try SourcesFixture(
      folder: folder, config: Self.inbox(maildir, "\n[source.queue]\nkind = files\npath = \(queue)\n"))
    try stage.awaitEvent("queue", count: 2)
    #expect(stage.sources.stop() == 0, "\(stage.context)")
    try stage.awaitEvent("queue", count: 2, stale: true)

    try Self.inbox(maildir).write(toFile: stage.config, atomically: true, encoding: .utf8)
    stage.sources = try SourcesProcess(folder: folder, config: stage.config, socket: stage.daemon.socket)
    try stage.awaitEvent("queue", count: 0)
    #expect(
      waitUntil {
        let state = (try? stage.daemon.client().request("GET queue").first) ?? ""
        return field(state, "count") == "0" && field(state, "source") == nil
      }, "\(stage.context)")
    #expect(stage.logLines(containing: "Releasing queue: source 'queue' counted it, and ") == 1, "\(stage.context)")
    #expect(try badgectl(["set", "queue", "9"], socket: stage.daemon.socket).status == 0)
    try stage.awaitEvent("inbox", count: 1)
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// The Maildir removed (waiting, 0, not stale), replaced by a file (error, stale), and made
  /// again with other messages (counted exactly, fresh).
  @Test func aMaildirRemovedReplacedByAFileAndMadeAgain() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    let stage = try SourcesFixture.counting(&maildir, in: folder, delivered: 3)

    try FileManager.default.removeItem(atPath: maildir.root)
    try stage.awaitEvent("inbox", count: 0)
    let waiting = try stage.awaitStatus("inbox") { $0.contains(" state=waiting ") }
    #expect(waiting.contains(" count=0 "), "\(waiting)")

    _ = FileManager.default.createFile(atPath: maildir.root, contents: Data("not a folder\n".utf8))
    try stage.awaitEvent("inbox", count: 0, stale: true)
    let error = try stage.awaitStatus("inbox") { $0.contains(" state=error ") }
    #expect(error.hasSuffix(" error=\(maildir.root) is not a directory"), "\(error)")

    try FileManager.default.removeItem(atPath: maildir.root)
    maildir = try TestMaildir(in: folder)
    try maildir.place(flags: "")
    try maildir.place(flags: "S")
    for _ in 0..<4 { try maildir.deliver() }
    #expect(try maildir.unread() == 5)
    try stage.awaitEvent("inbox", count: 5)
    try stage.awaitStatus("inbox") { $0.contains(" state=ok ") && $0.contains(" count=5 ") }
    #expect(stage.logLines(containing: "Source inbox: error: ") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0)
  }

  /// badged killed with SIGKILL while the Maildir changes, then started again on its state:
  /// the sources reconnect, claim and recount, exactly.
  @Test func theDaemonKilledAndStartedAgainIsRecountedExactly() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    let stage = try SourcesFixture.counting(&maildir, in: folder, delivered: 2)

    stage.daemon.crash()
    var names: [String] = []
    for _ in 0..<3 { names.append(try maildir.deliver()) }
    try maildir.rename(from: "new/" + names[0], to: "cur/" + names[0] + ":2,S")
    #expect(try maildir.unread() == 4)
    stage.daemon = try DaemonProcess(folder: folder)
    try stage.watchAgain()
    #expect(
      waitUntil {
        let state = (try? stage.daemon.client().request("GET inbox").first) ?? ""
        return field(state, "count") == "4" && field(state, "source") == "inbox" && field(state, "stale") == "0"
      }, "\(stage.context)")
    // And it keeps counting on the new connection.
    try maildir.deliver()
    try stage.awaitEvent("inbox", count: 5)
    #expect(stage.sources.stop() == 0)
  }
}
