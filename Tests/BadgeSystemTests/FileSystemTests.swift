import BadgeSystem
import Glibc
import Testing

@Suite struct FileSystemTests {
  @Test func makeFolderCreatesMissingParentsPrivately() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("a/b/c")
      try FileSystem.makeFolder(path)
      for created in [folder.file("a"), folder.file("a/b"), path] {
        let status = try #require(fileStatus(created))
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o777 == 0o700, "\(created)")
      }
      #expect(FileSystem.exists(path))
    }
  }

  @Test func anExistingFolderIsKeptAsItIs() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("shared")
      #expect(mkdir(path, 0o755) == 0)
      chmod(path, 0o755)
      try FileSystem.makeFolder(path, mode: 0o700)
      #expect(try #require(fileStatus(path)).st_mode & 0o777 == 0o755)
    }
  }

  @Test func aFileInTheWayIsAnError() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("file", "x")
      do throws(SystemError) {
        try FileSystem.makeFolder(path)
        Issue.record("made a folder over a file")
      } catch {
        #expect(error.description == "Failed to use '\(path)' as a folder: Not a directory")
      }
    }
  }

  @Test func existsAndRemove() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("gone", "x")
      #expect(FileSystem.exists(path))
      FileSystem.remove(path)
      #expect(!FileSystem.exists(path))
      FileSystem.remove(path)  // nothing there: no error
    }
  }

  @Test(arguments: [
    ("/run/user/1000/badged/badged.sock", "/run/user/1000/badged"), ("/badged.sock", "/"),
    ("badged.sock", "."), ("rel/badged.sock", "rel"),
  ])
  func folderOfAPath(_ path: String, _ folder: String) {
    #expect(FileSystem.folder(of: path) == folder)
  }

  @Test func looserModeNamesBitsBeyondTheAllowedOnes() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.sock")
      _ = try folder.write("badged.sock", "")
      for (mode, allowed, looser) in [
        (0o600, 0o600, nil), (0o400, 0o600, nil), (0o666, 0o600, 0o666), (0o604, 0o600, 0o604), (0o700, 0o700, nil),
        (0o711, 0o700, 0o711),
      ] as [(mode_t, mode_t, mode_t?)] {
        chmod(path, mode)
        #expect(FileSystem.looserMode(path, than: allowed) == looser, "\(String(mode, radix: 8))")
      }
      #expect(FileSystem.looserMode(folder.file("missing"), than: 0o600) == nil)
    }
  }
}
