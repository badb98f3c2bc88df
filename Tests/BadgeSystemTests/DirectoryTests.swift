import BadgeSystem
import Glibc
import Testing

/// Listings by `getdents64` and the rename that never replaces, on the real file system.
@Suite struct DirectoryTests {
  @Test func aListingHasEveryNameAsBytesWithItsKindAndNoDotEntries() throws {
    try TemporaryFolder.with { folder in
      let odd: [UInt8] = [0x6D, 0xFF, 0x3A, 0x32, 0x2C, 0x53]  // "m\xFF:2,S", not UTF-8
      try createFile(folder.path, odd)
      try createFile(folder.path, Array(".hidden".utf8))
      #expect(mkdir(folder.file("cur"), 0o700) == 0)
      #expect(symlink("cur", folder.file("link")) == 0)
      let entries = try Directory.list(folder.path).sorted { $0.name.lexicographicallyPrecedes($1.name) }
      #expect(
        entries == [
          DirectoryEntry(name: Array(".hidden".utf8), kind: .file),
          DirectoryEntry(name: Array("cur".utf8), kind: .folder),
          DirectoryEntry(name: Array("link".utf8), kind: .symbolicLink),
          DirectoryEntry(name: odd, kind: .file),
        ])
      #expect(try Directory.list(folder.file("cur")) == [])
    }
  }

  @Test func aMissingFolderOrAFileIsAnError() throws {
    try TemporaryFolder.with { folder in
      #expect(throws: Errno.noSuchFile) { try Directory.list(folder.file("none")) }
      let file = try folder.write("file", "x")
      #expect(throws: Errno(rawValue: ENOTDIR)) { try Directory.list(file) }
      #expect(throws: Errno(rawValue: EINVAL)) { try Directory.list([0x61, 0, 0x62]) }
    }
  }

  @Test func aHundredThousandNamesAreListedExactly() throws {
    try TemporaryFolder.with { folder in
      let count = 100_000
      for i in 0..<count { try createFile(folder.path, Array("1764950000.M\(i)P42.host,S=1234:2,".utf8)) }
      let start = Environment.monotonicMicroseconds
      let entries = try Directory.list(folder.path)
      let elapsed = Environment.monotonicMicroseconds - start
      print("Directory.list: \(entries.count) names in \(elapsed / 1000) ms")
      #expect(entries.count == count)
      #expect(Set(entries.map(\.name)).count == count)
      #expect(entries.allSatisfy { $0.kind == .file })
      #expect(entries.contains(DirectoryEntry(name: Array("1764950000.M99999P42.host,S=1234:2,".utf8), kind: .file)))
    }
  }

  @Test func aRenameNeverReplacesAndReportsAMissingSource() throws {
    try TemporaryFolder.with { folder in
      let (a, b, c) = (folder.file("new-a"), folder.file("cur-a:2,S"), folder.file("other"))
      try folder.write("new-a", "one")
      try folder.write("other", "two")
      #expect(try Directory.renameNoReplace(from: Array(a.utf8), to: Array(b.utf8)) == .renamed)
      #expect(try Directory.renameNoReplace(from: Array(a.utf8), to: Array(b.utf8)) == .sourceMissing)
      #expect(try Directory.renameNoReplace(from: Array(c.utf8), to: Array(b.utf8)) == .targetExists)
      #expect(try readText(b) == "one")
      #expect(try readText(c) == "two")
      #expect(throws: Errno(rawValue: EINVAL)) {
        try Directory.renameNoReplace(from: Array(c.utf8) + [0], to: Array(b.utf8))
      }
    }
  }
}
