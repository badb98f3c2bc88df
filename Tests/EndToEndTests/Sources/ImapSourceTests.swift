import Foundation
import Testing

/// The IMAP source against Debian's dovecot of the test's own, over TLS from a CA the test
/// made: the count is the server's unseen messages, pushed by IDLE, lowered when another
/// client reads mail, and a click marks read exactly what the badge showed. Every step waits
/// for the watcher's events; the figures expected are worked out from what the step did.
@Suite struct ImapSourceTests {
  /// The daemon, its watcher of `inbox`, and badged-sources counting alice's INBOX on `server`.
  final class Stage: SourcesStage {
    let server: MailServer

    /// `url`: the source's `server` (IMAPS to localhost unless told); `wrapper`: what runs
    /// badged-sources (a network namespace's launcher).
    init(
      _ server: MailServer, folder: TemporaryFolder, caFile: String? = nil, more: String = "", url: String? = nil,
      wrapper: [String] = []
    ) throws {
      self.server = server
      try super.init(
        folder: folder,
        config: Self.section("inbox", server: server, folder: folder, caFile: caFile, url: url) + more + "\n",
        wrapper: wrapper)
    }

    /// `[source.<name>]` counting `user`'s INBOX on `server`, its password in a file of
    /// `folder` (mode 0600) that the section names.
    static func section(
      _ name: String, server: MailServer, user: String = MailServer.user, folder: TemporaryFolder,
      caFile: String? = nil, url: String? = nil
    ) throws -> String {
      let password = try folder.write("password-\(user)", MailServer.password(of: user) + "\n")
      chmod(password, 0o600)
      return """
        [source.\(name)]
        kind = imap
        server = \(url ?? "imaps://localhost:\(server.port)")
        username = \(user)
        password_file = \(password)
        ca_file = \(caFile ?? server.caFile)

        """
    }

    override var context: String { super.context + "\ndovecot:\n\(server.log)" }
  }

  @Test func idlePushesDeliveriesAndAnotherClientsReadingAndAClickMarksReadExactlyWhatWasShown() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    let stage = try Stage(server, folder: try TemporaryFolder(), more: "on_clear = mark-read")
    let started = try stage.awaitCount(2)

    // LMTP delivers while the source is in IDLE: one more, and the total grows by exactly it.
    try server.deliver("m3")
    #expect(try stage.awaitCount(3, limit: 1) == started + 1)

    // Another client reads m1: the count drops, nothing arrived.
    try server.markSeen("m1")
    let shown = try stage.awaitCount(2, limit: 1)
    #expect(shown == started + 1)

    // m4 arrives after the badge showed m2 and m3; the click's watermark is the total shown.
    try server.deliver("m4")
    #expect(try stage.awaitCount(3, limit: 1) == shown + 1)
    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    _ = try stage.awaitCount(1)
    let unseen = try server.unseen()
    #expect(unseen.status == 1 && unseen.subjects == ["m4"], "\(unseen)\n\(stage.context)")

    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  @Test func aClickWhileTheServerIsAwayMarksReadExactlyWhatWasShownOnceItIsBack() throws {
    let server = try MailServer()
    try server.deliver("m1")
    try server.deliver("m2")
    let stage = try Stage(server, folder: try TemporaryFolder(), more: "on_clear = mark-read")
    let shown = try stage.awaitCount(2)

    server.stop()
    try stage.awaitStatus { $0.contains("state=retrying") }
    #expect(try stage.daemon.client().request("CLEAR inbox upto=\(shown)").last == "OK")
    try server.restart()
    // The click is held until the folder is synced again, then stored: both messages read.
    let stored = try waitUntil(timeout: 20) { try server.unseen().status == 0 }
    #expect(stored, "\(stage.context)")
    _ = try stage.awaitCount(0)
    try server.deliver("m3")
    _ = try stage.awaitCount(1)
    #expect(try server.unseen().subjects == ["m3"], "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  @Test func aCertificateFromAnotherCAIsRefusedClearlyAndNothingIsCounted() throws {
    let server = try MailServer()
    try server.deliver("m1")
    // A CA of the test's own that did not sign the server's certificate.
    let stage = try Stage(server, folder: try TemporaryFolder(), caFile: server.otherCAFile)
    let status = try stage.awaitStatus { $0.contains("state=retrying") }
    #expect(status.contains("certificate"), "\(status)\n\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
