import Foundation
import Testing

/// A `files` source end to end: the built badged and badged-sources counting the files of a
/// folder whose names match its globs; each file made or removed moves the count by exactly
/// one, a name that does not match moves nothing, and a subfolder counts with `recursive`.
@Suite struct FilesSourceTests {
  @Test func filesMatchingTheGlobsAreCountedAsTheyComeAndGo() throws {
    let folder = try TemporaryFolder()
    let queue = folder.file("queue")
    let files = FileManager.default
    try files.createDirectory(atPath: queue + "/sub", withIntermediateDirectories: true)
    for name in ["a.part", "b.part", "notes.txt", ".hidden.part", "sub/c.part"] {
      #expect(files.createFile(atPath: queue + "/" + name, contents: nil))
    }
    let stage = try SourcesFixture(
      folder: folder, config: "[source.downloads]\nkind = files\npath = \(queue)\nmatch = *.part *.crdownload\n")
    // Not hidden, not below: a.part and b.part.
    try stage.awaitEvent("downloads", count: 2)

    #expect(files.createFile(atPath: queue + "/d.crdownload", contents: nil))
    try stage.awaitEvent("downloads", count: 3)
    #expect(files.createFile(atPath: queue + "/e.txt", contents: nil))
    try files.removeItem(atPath: queue + "/a.part")
    // The .txt moved nothing: the next event is the removal's.
    try stage.awaitEvent("downloads", count: 2)
    #expect(!stage.events.contains { $0.hasPrefix("EVENT downloads ") && field($0, "count") == "4" })
    try files.moveItem(atPath: queue + "/b.part", toPath: queue + "/b.done")
    try stage.awaitEvent("downloads", count: 1)

    // Recursive: the subfolder's file counts, and one made there later.
    try stage.reload(
      "[source.downloads]\nkind = files\npath = \(queue)\nmatch = *.part *.crdownload\nrecursive = yes\n")
    try stage.awaitEvent("downloads", count: 2)
    #expect(files.createFile(atPath: queue + "/sub/f.part", contents: nil))
    try stage.awaitEvent("downloads", count: 3)
    let status = try stage.awaitStatus("downloads") { $0.contains(" count=3 ") }
    #expect(status.contains(" kind=files state=ok channels=1 count=3 "), "\(status)")
    #expect(stage.sources.stop() == 0)
  }
}
