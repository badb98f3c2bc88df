import BadgeSystem
import Glibc
import Testing

/// The `everysec` flush off the loop thread: each flush's result reaches `finished` exactly
/// once, on the loop thread (through the loop or `wait()`), and the flush works on its own
/// descriptor, so the file may be closed meanwhile.
@Suite struct BackgroundFlushTests {
  @Test func aFlushReportsSuccessThroughTheLoop() throws {
    try TemporaryFolder.with { folder in
      let loop = try EventLoop()
      var results: [String] = []
      let flush = try BackgroundFlush(loop: loop) { error in
        results.append(error.map { "\($0)" } ?? "flushed")
        loop.exit(code: 4)
      }
      let file = try AppendOnlyFile(path: folder.file("journal"))
      try file.append(Array("record\n".utf8))
      try flush.start(file)
      #expect(flush.isRunning)
      #expect(try loop.runGuarded() == 4)
      #expect(results == ["flushed"])
      #expect(!flush.isRunning)
    }
  }

  @Test func aFailedFlushIsReportedWithItsFileAndError() throws {
    let loop = try EventLoop()
    var results: [String] = []
    let flush = try BackgroundFlush(loop: loop) { error in
      results.append(error.map { "\($0)" } ?? "flushed")
      loop.exit(code: 5)
    }
    // A character device without a flush: fdatasync fails with EINVAL.
    let file = try AppendOnlyFile(path: "/dev/null")
    try flush.start(file)
    #expect(try loop.runGuarded() == 5)
    #expect(results == ["Failed to flush '/dev/null' to disk: Invalid argument"])
  }

  @Test func waitHandsTheResultOverAtOnceAndOnlyOnce() throws {
    try TemporaryFolder.with { folder in
      let loop = try EventLoop()
      var results: [String] = []
      let flush = try BackgroundFlush(loop: loop) { error in results.append(error.map { "\($0)" } ?? "flushed") }
      let file = try AppendOnlyFile(path: folder.file("journal"))
      try file.append(Array("record\n".utf8))
      try flush.start(file)
      file.close()  // the flush has a descriptor of its own
      flush.wait()
      #expect(results == ["flushed"])
      flush.wait()
      #expect(results == ["flushed"])
      #expect(!flush.isRunning)
      // The thread's wake-up byte is still in the pipe: the loop drains it and reports nothing.
      let done = try loop.addTimer(at: Environment.monotonicMicroseconds + 1) { loop.exit(code: 6) }
      defer { done.cancel() }
      #expect(try loop.runGuarded() == 6)
      #expect(results == ["flushed"])
    }
  }
}
