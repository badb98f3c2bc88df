import Foundation
import Testing

/// Real mail through the maildir source: Debian's dovecot of the test's own delivering with
/// LMTP and changing flags for an IMAP client, and mbsync keeping a local copy of its INBOX, as
/// users' Maildirs are really filled. `badged-sources` counts both: `server`, dovecot's own
/// Maildir of alice, and `inbox`, the local copy, with `on_clear = mark-read`. Every step waits
/// for the watchers' events; the figures expected are worked out from what the step did.
@Suite struct MailServerTests {
  /// The daemon, a watcher per channel, and badged-sources counting both Maildirs.
  final class Stage {
    let server: MailServer
    let sync: MailSync
    let folder: TemporaryFolder
    let daemon: DaemonProcess
    let serverWatcher: RawClient
    let inboxWatcher: RawClient
    let sources: SourcesProcess

    init(server: MailServer, sync: MailSync) throws {
      self.server = server
      self.sync = sync
      folder = try TemporaryFolder()
      let config = try folder.write(
        "badged.conf",
        """
        [source.server]
        kind = maildir
        path = \(server.maildir)

        [source.inbox]
        kind = maildir
        path = \(sync.inbox)
        on_clear = mark-read

        """)
      daemon = try DaemonProcess(folder: folder)
      (serverWatcher, _) = try SourcesStage.watch(daemon, channel: "server")
      (inboxWatcher, _) = try SourcesStage.watch(daemon, channel: "inbox")
      sources = try SourcesProcess(folder: folder, config: config, socket: daemon.socket)
    }

    var context: String { "badged-sources:\n\(sources.log)\nbadged:\n\(daemon.log)\ndovecot:\n\(server.log)" }

    /// The total of the first event showing the server's Maildir counted `count`.
    func awaitServer(_ count: Int, limit: Int = 8) throws -> Int {
      try SourcesStage.awaitCount(count, on: serverWatcher, source: "server", limit: limit) { context }
    }

    /// The total of the first event showing the local copy counted `count`.
    func awaitInbox(_ count: Int, limit: Int = 8) throws -> Int {
      try SourcesStage.awaitCount(count, on: inboxWatcher, source: "inbox", limit: limit) { context }
    }
  }

  /// The subjects of the unread messages of a Maildir (in `new/`, or in `cur/` without `S`),
  /// sorted: which messages are unread, not only how many.
  static func unreadSubjects(_ maildir: String) throws -> [String] {
    var subjects: [String] = []
    for place in ["new", "cur"] {
      for name in try FileManager.default.contentsOfDirectory(atPath: maildir + "/" + place) {
        if place == "cur", let info = name.range(of: ":2,"), name[info.upperBound...].contains("S") { continue }
        let text = try String(contentsOfFile: maildir + "/" + place + "/" + name, encoding: .utf8)
        let subject = text.split(separator: "\n").first { $0.hasPrefix("Subject: ") }
        subjects.append(subject.map { String($0.dropFirst(9)).trimmingCharacters(in: .whitespaces) } ?? name)
      }
    }
    return subjects.sorted()
  }

  @Test func deliveryReadingAndAClickMoveTheCountsOfDovecotAndAnMbsyncCopyExactly() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    let sync = try MailSync(server)
    try sync.sync()
    let stage = try Stage(server: server, sync: sync)
    let serverStarted = try stage.awaitServer(2)
    let inboxStarted = try stage.awaitInbox(2)

    // LMTP delivers into dovecot's Maildir: one more, and the total grows by exactly it.
    try server.deliver("m3")
    #expect(try stage.awaitServer(3, limit: 1) == serverStarted + 1)
    // mbsync brings it into the local copy.
    try sync.sync()
    #expect(try stage.awaitInbox(3, limit: 1) == inboxStarted + 1)

    // Another IMAP client reads m1: dovecot's rename lowers the server's count, and mbsync's
    // rename of the local copy lowers the inbox's by exactly one, arriving nothing.
    try server.markSeen("m1")
    #expect(try stage.awaitServer(2, limit: 1) == serverStarted + 1)
    try sync.sync()
    let shown = try stage.awaitInbox(2, limit: 1)
    #expect(shown == inboxStarted + 1)
    #expect(try Self.unreadSubjects(sync.inbox) == ["m2", "m3"])

    // m4 arrives after the badge showed m2 and m3.
    try server.deliver("m4")
    #expect(try stage.awaitServer(3) == serverStarted + 2)
    try sync.sync()
    #expect(try stage.awaitInbox(3, limit: 1) == shown + 1)

    // The click marks read locally exactly what the badge showed; mbsync pushes it to dovecot.
    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    _ = try stage.awaitInbox(1)
    #expect(try Self.unreadSubjects(sync.inbox) == ["m4"])
    try sync.sync()
    _ = try stage.awaitServer(1)
    let unseen = try server.unseen()
    #expect(unseen.status == 1 && unseen.subjects == ["m4"], "\(unseen)")
    #expect(try Self.unreadSubjects(server.maildir) == ["m4"])

    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
