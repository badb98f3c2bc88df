import Foundation
import Testing

/// A click on another machine's copy of a source's channel, against the real broker: `desktop`
/// counts its Maildir into `inbox` with badged-sources (`on_clear = mark-read`) and shares it,
/// `laptop` mirrors it, and a `CLEAR inbox upto=<T>` on the laptop marks read at the desktop's
/// Maildir exactly the messages the laptop's badge showed, never the one that arrived after.
/// Every step waits for watch events on the machine it concerns, never for time.
@Suite struct MirroredSourceClearTests {
  @Test func aClickOnTheMirrorMarksReadAtTheOwnersMaildirExactlyWhatItShowed() throws {
    let network = try MeshNetwork()
    let desktop = try Machine("desktop", on: network, share: "inbox")
    let laptop = try Machine("laptop", on: network)
    let (desktopEvents, _) = try SourcesStage.watch(desktop.daemon!)
    let laptopEvents = try laptop.watcher("inbox")
    var maildir = try TestMaildir(in: desktop.folder)
    let config = try desktop.folder.write(
      "sources.conf", "[source.inbox]\nkind = maildir\npath = \(maildir.root)\non_clear = mark-read\n")
    let sources = try SourcesProcess(folder: desktop.folder, config: config, socket: desktop.socket)
    let context = { "badged-sources:\n\(sources.log)\n\(desktop.diagnostics)\n\(laptop.diagnostics)" }

    // Three messages: the laptop's badge shows 3, at the total the desktop counted them to.
    let shownMessages = try (0..<3).map { _ in try maildir.deliver() }
    let shown = try SourcesStage.awaitCount(3, on: desktopEvents, limit: 16, context)
    try laptopEvents.waitFor("inbox", ["count": "3", "total": "\(shown)", "owner": "desktop", "stale": "0"])

    // A fourth arrives after the laptop drew 3; the laptop sees it too.
    let later = try maildir.deliver()
    #expect(try SourcesStage.awaitCount(4, on: desktopEvents, limit: 1, context) == shown + 1)
    try laptopEvents.waitFor("inbox", ["count": "4", "total": "\(shown + 1)", "stale": "0"])

    // The click on the laptop, up to what its badge showed for 3.
    try laptop.request("CLEAR inbox upto=\(shown)")
    _ = try SourcesStage.awaitCount(1, on: desktopEvents, context)
    // The laptop's view dropped to 1 at once (its own clear), and the owner's states come after
    // it: a mute on the desktop after its count of 1 marks the owner's state that has it (the
    // owner publishes a channel's latest state, at most one every 50 ms).
    try desktop.request("MUTE inbox")
    let last = try laptopEvents.waitFor("inbox", ["muted": "1", "owner": "desktop", "stale": "0"])
    #expect(field(last, "count") == "1" && field(last, "total") == "\(shown + 1)", "\(laptopEvents.lines)")
    #expect(field(last, "pending") == nil, "\(last)")

    #expect(try maildir.unread() == 1)
    let read = try FileManager.default.contentsOfDirectory(atPath: maildir.root + "/cur").sorted()
    #expect(read == shownMessages.map { $0 + ":2,S" }.sorted(), "\(context())")
    #expect(try FileManager.default.contentsOfDirectory(atPath: maildir.root + "/new") == [later])
    #expect(desktop.state("inbox").flatMap { field($0, "count") } == "1")
    #expect(sources.stop() == 0, "\(context())")
  }
}
