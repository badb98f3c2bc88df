import BadgeCore
import BadgeSources
import Testing

/// A files source through `SourcesCore`: globs, hidden names, subfolders, overflow.
@Suite struct FilesSourceCoreTests {
  static let config = """
    [source.downloads]
    kind = files
    path = ~/Downloads
    match = *.part *.crdownload
    recursive = yes
    """

  static func counting() throws -> SourcesHarness {
    let harness = try SourcesHarness(Self.config)
    harness.mkdir("/home/u/Downloads/sub/deeper", "/home/u/Downloads/.cache")
    harness.place(
      "/home/u/Downloads/a.part", "/home/u/Downloads/b.txt", "/home/u/Downloads/.c.part",
      "/home/u/Downloads/sub/d.crdownload", "/home/u/Downloads/sub/deeper/e.part", "/home/u/Downloads/.cache/f.part")
    harness.startCounting()
    return harness
  }

  @Test func theMatchingFilesCountHiddenOnesNot() throws {
    let harness = try Self.counting()
    #expect(harness.daemon["downloads"]! == (3, 3))
    #expect(
      harness.watches.values.sorted() == [
        "/home/u/Downloads", "/home/u/Downloads/sub", "/home/u/Downloads/sub/deeper",
      ])
  }

  @Test func eachNewFileCountsOnceAndAFinishedOneLeaves() throws {
    let harness = try Self.counting()
    #expect(
      harness.read(harness.create("/home/u/Downloads/sub/g.part")).writes == [
        "SET downloads 4 new=1 id=src-7f3a91c2:2"
      ])
    harness.answerWrites()
    harness.advance(ms: 1000)
    // A download finishes: renamed to its final name, which does not match.
    let finished = harness.read(harness.move("/home/u/Downloads/a.part", to: "/home/u/Downloads/a.iso"))
    #expect(finished.writes == ["SET downloads 3 new=0 id=src-7f3a91c2:3"])
    harness.answerWrites()
    #expect(harness.daemon["downloads"]! == (3, 4))
  }

  @Test func aFolderMovedInAndAnOverflowRecount() throws {
    let harness = try Self.counting()
    harness.mkdir("/tmp/batch")
    harness.place("/tmp/batch/h.part", "/tmp/batch/i.part")
    let moved = harness.read(harness.move("/tmp/batch", to: "/home/u/Downloads/batch"))
    #expect(moved.lists.first == "/home/u/Downloads")
    #expect(moved.writes == ["SET downloads 5 new=2 id=src-7f3a91c2:2"])
    harness.answerWrites()
    harness.advance(ms: 1000)
    _ = harness.remove("/home/u/Downloads/sub")
    let recounted = harness.read([("downloads", .overflow)])
    #expect(recounted.writes == ["SET downloads 3 new=0 id=src-7f3a91c2:3"])
    #expect(recounted.contains(.unwatch(source: "downloads", tag: Array("sub".utf8))))
  }
}
