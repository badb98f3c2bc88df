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
  /// `count=` and `total=` of a state line, and whether it says `source=inbox stale=0`.
  static func figures(_ line: String) -> (count: Int, total: Int, fresh: Bool)? {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ").dropFirst(2) {
      let pair = word.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
    }
    guard let count = fields["count"].flatMap(Int.init), let total = fields["total"].flatMap(Int.init) else {
      return nil
    }
    return (count, total, fields["source"] == "inbox" && fields["stale"] == "0")
  }

  /// Reads the watcher's events until one shows the source's fresh count `count`; that event's
  /// total. Fails at the first event past `limit`, or when none comes in time.
  static func awaitCount(_ count: Int, on watcher: RawClient, limit: Int = 8, _ context: () -> String) throws -> Int {
    var seen: [String] = []
    while seen.count < limit, let line = try watcher.readLine() {
      seen.append(line)
      if let state = figures(line), state.count == count, state.fresh { return state.total }
    }
    throw TestFailure("no event with count=\(count) source=inbox stale=0: \(seen)\n\(context())")
  }

  /// A watcher of `inbox` on `daemon`, past its snapshot; the snapshot's line for the channel.
  static func watch(_ daemon: DaemonProcess) throws -> (RawClient, String?) {
    let watcher = try daemon.client()
    let reply = try watcher.request("WATCH inbox")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return (watcher, reply.first { $0.hasPrefix("STATE inbox ") })
  }

  @Test func theCountFollowsDeliveriesReadsAndADaemonRestartExactly() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    for _ in 0..<3 { try maildir.deliver() }
    let unreadInCur = try maildir.place(flags: "")
    try maildir.place(flags: "S")
    try maildir.place(flags: "RS")
    try maildir.place(flags: "T")
    #expect(try maildir.unread() == 4)
    let config = try folder.write(
      "badged.conf", "[source.inbox]\nkind = maildir\npath = \(maildir.root)\nchannel = inbox\n")
    var daemon = try DaemonProcess(folder: folder)
    var (watcher, _) = try Self.watch(daemon)
    let sources = try SourcesProcess(folder: folder, config: config, socket: daemon.socket)
    let context = { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }

    // Started: the channel is claimed and set to the Maildir's count.
    let started = try Self.awaitCount(4, on: watcher, context)

    // A delivery: one more, and the total grows by exactly it.
    try maildir.deliver()
    #expect(try Self.awaitCount(5, on: watcher, limit: 1, context) == started + 1)

    // Read elsewhere: the flag rename in cur/ lowers it, and arrives nothing.
    try maildir.rename(from: "cur/" + unreadInCur, to: "cur/" + unreadInCur + "S")
    #expect(try maildir.unread() == 4)
    #expect(try Self.awaitCount(4, on: watcher, limit: 1, context) == started + 1)

    // The daemon restarted while the Maildir changed: the sources reconnect and recount.
    watcher.close()
    #expect(daemon.stop() == 0)
    try maildir.deliver()
    let other = try maildir.deliver()
    try maildir.rename(from: "new/" + other, to: "cur/" + other + ":2,S")
    #expect(try maildir.unread() == 5)
    daemon = try DaemonProcess(folder: folder)
    let snapshot: String?
    (watcher, snapshot) = try Self.watch(daemon)
    // Recounted before the watch began, or an event tells it after.
    let recounted = snapshot.flatMap(Self.figures).map { $0.count == 5 && $0.fresh } ?? false
    if !recounted { _ = try Self.awaitCount(5, on: watcher, context) }
    #expect(try daemon.client().request("GET inbox").first.flatMap(Self.figures)?.count == 5)

    #expect(sources.stop() == 0, "\(context())")
    #expect(sources.log.contains("<6>Source inbox: counting.\n"), "\(context())")
  }

  /// `on_clear = mark-read`: a click's `CLEAR upto=` marks read at the Maildir exactly the
  /// messages the badge showed (the `S` flag), never the one that arrived after.
  @Test func aClickMarksReadExactlyWhatTheBadgeShowed() throws {
    let folder = try TemporaryFolder()
    var maildir = try TestMaildir(in: folder)
    for _ in 0..<2 { try maildir.deliver() }
    let config = try folder.write(
      "badged.conf", "[source.inbox]\nkind = maildir\npath = \(maildir.root)\non_clear = mark-read\n")
    let daemon = try DaemonProcess(folder: folder)
    let (watcher, _) = try Self.watch(daemon)
    let sources = try SourcesProcess(folder: folder, config: config, socket: daemon.socket)
    let context = { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)" }
    let shown = try Self.awaitCount(2, on: watcher, context)
    let later = try maildir.deliver()
    #expect(try Self.awaitCount(3, on: watcher, limit: 1, context) == shown + 1)

    #expect(try daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    _ = try Self.awaitCount(1, on: watcher, context)
    #expect(try maildir.unread() == 1)
    let read = try FileManager.default.contentsOfDirectory(atPath: maildir.root + "/cur").sorted()
    #expect(read.count == 2 && read.allSatisfy { $0.hasSuffix(":2,S") }, "\(read)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: maildir.root + "/new") == [later])
    #expect(sources.stop() == 0, "\(context())")
  }
}
