import BadgeNotmuch
import Foundation
import Testing

/// A notmuch source end to end: the built `badged` and `badged-sources`, the real `notmuch new`
/// and `notmuch tag` on a database of the test's own (`TestNotmuch`), and a watcher of the
/// channel. The count is always `notmuch count` of the source's query, and every step waits for
/// the watcher's events or a reply, never for time.
@Suite struct NotmuchSourceTests {
  static let query = "tag:unread and tag:inbox"

  /// The daemon, a watcher of `inbox` past its snapshot, and badged-sources counting the
  /// test's notmuch database in `[source.inbox]` (the default query) with `settings` more.
  final class Stage: SourcesStage {
    var notmuch: TestNotmuch

    init(settings: String = "", prepare: (inout TestNotmuch) throws -> Void) throws {
      let folder = try TemporaryFolder()
      notmuch = try TestNotmuch(in: folder)
      try prepare(&notmuch)
      try super.init(
        folder: folder, config: "[source.inbox]\nkind = notmuch\n\(settings)", environment: notmuch.environment)
    }

    /// Reads the watcher's events until one says the channel is stale.
    func awaitStale() throws {
      var seen: [String] = []
      while seen.count < 8, let line = try? watcher.readLine() {
        seen.append(line)
        if line.contains(" source=inbox stale=1 ") { return }
      }
      throw TestFailure("no event with source=inbox stale=1: \(seen)\n\(context)")
    }

    /// `badgectl sources`' line for the source.
    func status() throws -> String {
      let table = try badgectl(["sources"], socket: daemon.socket).stdout
      return table.split(separator: "\n").first { $0.hasPrefix("inbox ") }.map(String.init) ?? table
    }
  }

  @Test func theCountFollowsNotmuchNewAndNotmuchTagExactly() throws {
    let stage = try Stage { notmuch in
      for _ in 0..<3 { try notmuch.deliver() }
      try notmuch.notmuch("new")
      try notmuch.notmuch("tag", "-unread", "--", "id:nm1@example.org")
    }
    #expect(try stage.notmuch.count(Self.query) == 2)

    // Started: the channel is set to the query's count.
    let started = try stage.awaitCount(2)

    // New mail indexed: one more, and the total grows by exactly it.
    try stage.notmuch.deliver()
    try stage.notmuch.notmuch("new")
    #expect(try stage.notmuch.count(Self.query) == 3)
    #expect(try stage.awaitCount(3) == started + 1, "\(stage.context)")

    // Read elsewhere: the tag lowers the count, and arrives nothing.
    try stage.notmuch.notmuch("tag", "-unread", "--", "id:nm2@example.org")
    #expect(try stage.notmuch.count(Self.query) == 2)
    #expect(try stage.awaitCount(2) == started + 1, "\(stage.context)")
    #expect(try stage.status().hasSuffix(" ok"), "\(stage.context)")

    #expect(stage.sources.stop() == 0, "\(stage.context)")
    #expect(stage.sources.log.contains("<6>Source inbox: counting.\n"), "\(stage.context)")
  }

  /// `on_clear = mark-read`: a click's `CLEAR upto=` removes `unread` from exactly the messages
  /// the badge showed, never from the one that arrived after.
  @Test func aClickMarksReadExactlyWhatTheBadgeShowed() throws {
    let stage = try Stage(settings: "on_clear = mark-read\n") { notmuch in
      for _ in 0..<2 { try notmuch.deliver() }
      try notmuch.notmuch("new")
    }
    let shown = try stage.awaitCount(2)
    let later = try stage.notmuch.deliver()
    try stage.notmuch.notmuch("new")
    #expect(try stage.awaitCount(3) == shown + 1, "\(stage.context)")

    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    _ = try stage.awaitCount(1)
    #expect(try stage.notmuch.ids("tag:unread") == [later])
    #expect(try stage.notmuch.ids("not tag:unread") == ["nm1@example.org", "nm2@example.org"])
    // With maildir.synchronize_flags, the marks renamed the files to carry `S`.
    let read = try FileManager.default.contentsOfDirectory(atPath: stage.notmuch.mail + "/cur").sorted()
    #expect(read.count == 2 && read.allSatisfy { $0.hasSuffix(":2,S") }, "\(read)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// A click while another writer holds the database (as `notmuch new` does while it
  /// indexes): the marks wait for the lock, the source stays ok, and once the writer lets go
  /// exactly the messages shown are marked read.
  @Test func aClickWhileAnotherWriterHoldsTheDatabaseIsDoneOnceItLetsGo() throws {
    let stage = try Stage(settings: "on_clear = mark-read\n") { notmuch in
      for _ in 0..<2 { try notmuch.deliver() }
      try notmuch.notmuch("new")
    }
    let shown = try stage.awaitCount(2)
    let writer = try NotmuchDatabase(config: stage.notmuch.config, mode: .readWrite)
    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    // Nothing can be marked while the lock is held.
    #expect(try stage.notmuch.ids("tag:unread") == ["nm1@example.org", "nm2@example.org"])
    #expect(try stage.status().hasSuffix(" ok"), "\(stage.context)")
    writer.close()
    _ = try stage.awaitCount(0)
    #expect(try stage.notmuch.ids("tag:unread").isEmpty)
    #expect(try stage.status().hasSuffix(" ok"), "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
    #expect(!stage.sources.log.contains("error"), "\(stage.context)")
  }

  /// No database yet: the source is in error and its channel stale at 0, until `notmuch new`
  /// makes one; then it counts and is ok.
  @Test func aMissingDatabaseIsAnErrorUntilNotmuchNewMakesIt() throws {
    let stage = try Stage { notmuch in
      for _ in 0..<3 { try notmuch.deliver() }
    }
    try stage.awaitStale()
    let xapian = stage.notmuch.mail + "/.notmuch/xapian"
    #expect(try stage.status().hasSuffix(" error: no notmuch database at \(xapian)"), "\(stage.context)")
    let got = try stage.daemon.client().request("GET inbox")
    #expect(got.first?.contains(" count=0 ") == true && got.first?.contains(" source=inbox stale=1 ") == true, "\(got)")

    try stage.notmuch.notmuch("new")
    #expect(try stage.awaitCount(3) == 3, "\(stage.context)")
    #expect(try stage.status().hasSuffix(" ok"), "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
    #expect(
      stage.sources.log.contains("<3>Source inbox: error: no notmuch database at \(xapian).\n"), "\(stage.context)")
  }
}
