import BadgeSystem
import Glibc
import Testing

/// The journal's file: appends at its logical end, into zeros made ahead (`makeRoom`) before
/// the file grows. (The power-cut check, CrashConsistencyTests, sees the same writes traced.)
@Suite struct AppendOnlyFileTests {
  /// The length of the file at `path` on disk.
  static func length(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : -1
  }

  /// The bytes of the file at `path`.
  static func bytes(_ path: String) throws -> [UInt8] { try StateFiles.read(path) ?? [] }

  /// Runs `body` with a new file in a folder of its own, and its path.
  static func withFile(_ body: (String, AppendOnlyFile) throws -> Void) throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("journal")
      try body(path, try AppendOnlyFile(path: path))
    }
  }

  @Test func appendsFillTheRoomWithoutMakingTheFileLonger() throws {
    try Self.withFile { path, file in
      try file.append(Array("HEAD".utf8))
      try file.makeRoom(for: 10, chunk: 64)
      #expect((file.size, file.allocated, file.room) == (4, 64, 60))
      #expect(Self.length(path) == 64)
      try file.append(Array("0123456789".utf8))
      #expect((file.size, file.allocated, file.room) == (14, 64, 50))
      #expect(Self.length(path) == 64, "the write went into the room")
      #expect(try Self.bytes(path) == Array("HEAD0123456789".utf8) + [UInt8](repeating: 0, count: 50))
      // Room enough: nothing is made.
      try file.makeRoom(for: 50, chunk: 64)
      #expect(file.allocated == 64)
    }
  }

  @Test func theNextChunkIsMadeWhenTheRecordsWouldNotFitAndCoversThemWhole() throws {
    try Self.withFile { path, file in
      try file.append([UInt8](repeating: 7, count: 60))
      try file.makeRoom(for: 5, chunk: 64)
      #expect(file.allocated == 128, "to the next multiple of the chunk that holds the 5 bytes")
      try file.makeRoom(for: 200, chunk: 64)
      #expect(file.allocated == 320, "more than a chunk of records: as many chunks as they need")
      #expect(Self.length(path) == 320)
      try file.append([UInt8](repeating: 9, count: 200))
      let bytes = try Self.bytes(path)
      #expect(bytes.count == 320)
      #expect(bytes[..<60].allSatisfy { $0 == 7 } && bytes[60..<260].allSatisfy { $0 == 9 })
      #expect(bytes[260...].allSatisfy { $0 == 0 })
    }
  }

  @Test func withoutRoomAnAppendMakesTheFileLonger() throws {
    try Self.withFile { path, file in
      try file.append(Array("HEAD".utf8))
      try file.makeRoom(for: 8, chunk: 16)
      try file.append([UInt8](repeating: 1, count: 20))  // past the room
      #expect((file.size, file.allocated, file.room) == (24, 24, 0))
      #expect(Self.length(path) == 24)
    }
  }

  @Test func aTruncationDropsTheRoomAndReopeningStartsAtTheLengthOnDisk() throws {
    try Self.withFile { path, file in
      try file.append(Array("HEAD".utf8))
      try file.makeRoom(for: 1, chunk: 32)
      try file.append([1, 2, 3])
      file.truncate(to: 4)
      #expect((file.size, file.allocated) == (4, 4))
      #expect(try Self.bytes(path) == Array("HEAD".utf8))
      try file.makeRoom(for: 1, chunk: 32)
      file.close()
      let reopened = try AppendOnlyFile(path: path)
      #expect((reopened.size, reopened.room) == (32, 0))
    }
  }

  @Test func roomThatCannotBeWrittenIsNotCounted() throws {
    // /dev/full refuses every write with ENOSPC, as a full disk does.
    let file = try AppendOnlyFile(path: "/dev/full")
    #expect(throws: SystemError.self) { try file.makeRoom(for: 10, chunk: 64) }
    #expect((file.size, file.allocated, file.room) == (0, 0, 0))
  }
}
