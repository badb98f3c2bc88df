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
  /// `figures(_:source:)` of the source `inbox`.
  static func figures(_ line: String) -> (count: Int, total: Int, fresh: Bool)? { figures(line, source: "inbox") }

  /// `count=` and `total=` of a state line, and whether it says `source=<source> stale=0`.
  static func figures(_ line: String, source: String) -> (count: Int, total: Int, fresh: Bool)? {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ").dropFirst(2) {
      let pair = word.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
    }
    guard let count = fields["count"].flatMap(Int.init), let total = fields["total"].flatMap(Int.init) else {
      return nil
    }
    return (count, total, fields["source"] == source && fields["stale"] == "0")
  }

  /// Reads the watcher's events until one shows `source`'s fresh count `count`; that event's
  /// total. Fails at the first event past `limit`, or when none comes in time.
  static func awaitCount(
    _ count: Int, on watcher: RawClient, source: String = "inbox", limit: Int = 8, _ context: () -> String
  ) throws -> Int {
    var seen: [String] = []
    while seen.count < limit, let line = try watcher.readLine() {
      seen.append(line)
      if let state = figures(line, source: source), state.count == count, state.fresh { return state.total }
    }
    throw TestFailure("no event with count=\(count) source=\(source) stale=0: \(seen)\n\(context())")
  }

  /// A watcher of `channel` on `daemon`, past its snapshot; the snapshot's line for the channel.
  static func watch(_ daemon: DaemonProcess, channel: String = "inbox") throws -> (RawClient, String?) {
    let watcher = try daemon.client()
    let reply = try watcher.request("WATCH \(channel)")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return (watcher, reply.first { $0.hasPrefix("STATE \(channel) ") })
  }

  /// The daemon, a watcher of `inbox` past its snapshot, and badged-sources counting a
  /// Maildir of the test's own in `[source.inbox]` with `settings` more.
  final class Stage {
    let folder: TemporaryFolder
    var maildir: TestMaildir
    var daemon: DaemonProcess
    var watcher: RawClient
    let sources: SourcesProcess

    init(settings: String = "", prepare: (inout TestMaildir) throws -> Void) throws {
      folder = try TemporaryFolder()
      maildir = try TestMaildir(in: folder)
      try prepare(&maildir)
      let config = try folder.write(
        "badged.conf", "[source.inbox]\nkind = maildir\npath = \(maildir.root)\n\(settings)")
      daemon = try DaemonProcess(folder: folder)
      (watcher, _) = try MaildirSourceTests.watch(daemon)
      sources = try SourcesProcess(folder: folder, config: config, socket: daemon.socket)
    }

    /// Both programs' logs, for a failure's message.
    var context: String { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }

    /// Reads the watcher's events until the source's fresh count is `count` (`awaitCount`).
    func awaitCount(_ count: Int, limit: Int = 8) throws -> Int {
      try MaildirSourceTests.awaitCount(count, on: watcher, limit: limit) { context }
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
    (stage.watcher, snapshot) = try Self.watch(stage.daemon)
    // Recounted before the watch began, or an event tells it after.
    let recounted = snapshot.flatMap(Self.figures).map { $0.count == 5 && $0.fresh } ?? false
    if !recounted { _ = try stage.awaitCount(5) }
    #expect(try stage.daemon.client().request("GET inbox").first.flatMap(Self.figures)?.count == 5)

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
