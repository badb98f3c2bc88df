import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A maildir source end to end: the built `badged` on a temporary socket, the built
/// `badged-sources` on a temporary config whose one source counts a temporary Maildir, and a
/// watcher of the channel. The count is always the one this test works out from the Maildir
/// itself, and every step waits for the watcher's events, never for time.
@Suite struct MaildirSourceTests {
  /// The daemon, a watcher of `inbox` past its snapshot, and badged-sources counting a
  /// Maildir of the test's own in `[source.inbox]` with `settings` more.
  final class Stage: SourcesStage {
    var maildir: TestMaildir

    init(settings: String = "", prepare: (inout TestMaildir) throws -> Void) throws {
      let folder = try TemporaryFolder()
      maildir = try TestMaildir(in: folder)
      try prepare(&maildir)
      try super.init(folder: folder, config: "[source.inbox]\nkind = maildir\npath = \(maildir.root)\n\(settings)")
    }
  }

  @Test func theCountFollowsDeliveriesReadsAndADaemonRestartExactly() throws {
    var unreadInCur = ""
    let stage = try Stage(settings: "channel = inbox\n") { maildir in
      for _ in 0..<3 { try maildir.deliver() }
      unreadInCur = try maildir.place(flags: "")
      try maildir.place(flags: "S")
      try maildir.place(flags: "RS")
      try maildir.place(flags: "T")
    }
    #expect(try stage.maildir.unread() == 4)

    // Started: the channel is claimed and set to the Maildir's count.
    let started = try stage.awaitCount(4)

    // A delivery: one more, and the total grows by exactly it.
    try stage.maildir.deliver()
    #expect(try stage.awaitCount(5, limit: 1) == started + 1)

    // Read elsewhere: the flag rename in cur/ lowers it, and arrives nothing.
    try stage.maildir.rename(from: "cur/" + unreadInCur, to: "cur/" + unreadInCur + "S")
    #expect(try stage.maildir.unread() == 4)
    #expect(try stage.awaitCount(4, limit: 1) == started + 1)

    // The daemon restarted while the Maildir changed: the sources reconnect and recount.
    stage.watcher.close()
    #expect(stage.daemon.stop() == 0)
    try stage.maildir.deliver()
    let other = try stage.maildir.deliver()
    try stage.maildir.rename(from: "new/" + other, to: "cur/" + other + ":2,S")
    #expect(try stage.maildir.unread() == 5)
    stage.daemon = try DaemonProcess(folder: stage.folder)
    let snapshot: String?
    (stage.watcher, snapshot) = try SourcesStage.watch(stage.daemon)
    // Recounted before the watch began, or an event tells it after.
    let recounted = snapshot.flatMap { SourcesStage.figures($0) }.map { $0.count == 5 && $0.fresh } ?? false
    if !recounted { _ = try stage.awaitCount(5) }
    #expect(try stage.daemon.client().request("GET inbox").first.flatMap { SourcesStage.figures($0) }?.count == 5)

    #expect(stage.sources.stop() == 0, "\(stage.context)")
    #expect(stage.sources.log.contains("<6>Source inbox: counting.\n"), "\(stage.context)")
  }

  /// `on_clear = mark-read`: a click's `CLEAR upto=` marks read at the Maildir exactly the
  /// messages the badge showed (the `S` flag), never the one that arrived after.
  @Test func aClickMarksReadExactlyWhatTheBadgeShowed() throws {
    let stage = try Stage(settings: "on_clear = mark-read\n") { maildir in
      for _ in 0..<2 { try maildir.deliver() }
    }
    let shown = try stage.awaitCount(2)
    let later = try stage.maildir.deliver()
    #expect(try stage.awaitCount(3, limit: 1) == shown + 1)

    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    _ = try stage.awaitCount(1)
    #expect(try stage.maildir.unread() == 1)
    let root = stage.maildir.root
    let read = try FileManager.default.contentsOfDirectory(atPath: root + "/cur").sorted()
    #expect(read.count == 2 && read.allSatisfy { $0.hasSuffix(":2,S") }, "\(read)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/new") == [later])
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
