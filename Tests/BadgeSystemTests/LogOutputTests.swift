import BadgeCore
import BadgeLog
import BadgeSystem
import Foundation
import Glibc
import Testing

/// The log never waits for its reader: a line that cannot go out now is dropped and counted,
/// the count goes out first once lines do again, no line is torn, and the descriptor the log
/// shares with whoever started the daemon keeps its flags. Each test would hang, not fail,
/// if a write waited.
@Suite struct LogOutputTests {
  /// A line of `count` bytes with the newline, numbered.
  static func message(_ n: Int, bytes count: Int = 100) -> String {
    let head = "line \(n) "
    return head + String(repeating: "x", count: count - head.utf8.count - 4)  // "<6>" and "\n"
  }

  /// What `fd` has now (until `EAGAIN` or its end).
  static func readBytes(_ fd: FileDescriptor) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let n = Glibc.read(fd.rawValue, &buffer, buffer.count), n > 0 { data += buffer[..<n] }
    return data
  }

  /// The lines of `data`; a last one without its line feed is not one.
  static func lines(_ data: [UInt8]) -> [String] {
    data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
  }

  static func readAll(_ fd: FileDescriptor) -> [String] { lines(readBytes(fd)) }

  static func isNonBlocking(_ fd: FileDescriptor) -> Bool { fcntl(fd.rawValue, F_GETFL) & O_NONBLOCK != 0 }

  /// Every line is one of those logged, whole, or a count of dropped ones; returns how many
  /// logged lines there are and the sum of the counts.
  static func expectWhole(
    _ lines: [String], bytes: Int = 100, sourceLocation: SourceLocation = #_sourceLocation
  ) -> (written: Int, counted: Int) {
    var result = (written: 0, counted: 0)
    for line in lines {
      if line.hasPrefix("<6>line ") && line.utf8.count == bytes - 1 {
        result.written += 1
      } else if line.hasPrefix("<4>"), line.hasSuffix(" dropped while the log was not being read."),
        let n = Int(line.dropFirst(3).prefix { $0.isNumber })
      {
        result.counted += n
      } else {
        Issue.record("a torn or foreign line: '\(line.prefix(120))'", sourceLocation: sourceLocation)
      }
    }
    return result
  }

  @Test func aFullPipeDropsLinesAndTheCountGoesOutFirstOnceItIsRead() throws {
    let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    defer {
      ends.read.close()
      ends.write.close()
    }
    let output = LogOutput(.standardError(priorityPrefix: true), standardError: ends.write.rawValue)
    let logger = Logger(level: .info, sink: output)
    for n in 0..<2000 { logger.info(Self.message(n)) }  // 200,000 bytes into a 64 KiB pipe
    #expect(!Self.isNonBlocking(ends.write), "the shared description is left as it was")
    // A count that fits where a line no longer does goes out at once, where the drop was.
    let (written, counted) = Self.expectWhole(Self.readAll(ends.read))
    #expect(written > 0 && written < 2000)
    let dropped = 2000 - written - counted
    #expect(dropped > 0 && output.droppedCount == dropped)
    logger.info("after")
    #expect(
      Self.readAll(ends.read) == ["<4>\(dropped) log lines dropped while the log was not being read.", "<6>after"])
    #expect(output.droppedCount == 0)
  }

  @Test func theCountGoesOutAsSoonAsThereIsRoomWithoutAnotherLine() throws {
    let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    defer {
      ends.read.close()
      ends.write.close()
    }
    let output = LogOutput(.standardError(priorityPrefix: true), standardError: ends.write.rawValue)
    let logger = Logger(level: .info, sink: output)
    for n in 0..<1000 { logger.info(Self.message(n)) }
    let loop = try EventLoop()
    output.watchForRoom(on: loop)
    let (written, counted) = Self.expectWhole(Self.readAll(ends.read))
    // The watch fires once the pipe has room: then the count is written, and the loop stops.
    let stop = try loop.addTimer(at: Environment.monotonicMicroseconds + 50_000) { [unowned loop] in
      loop.exit(code: 0)
    }
    #expect(try loop.runGuarded() == 0)
    withExtendedLifetime(stop) {}
    #expect(
      Self.readAll(ends.read) == ["<4>\(1000 - written - counted) log lines dropped while the log was not being read."])
  }

  @Test func aSocketTakesTheRestOfAHalfSentLineBeforeAnythingElse() throws {
    var fds: [CInt] = [-1, -1]
    let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
    #expect(socketpair(AF_UNIX, type, 0, &fds) == 0)
    let (writer, reader) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    defer {
      writer.close()
      reader.close()
    }
    var small: CInt = 32768
    setsockopt(writer.rawValue, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<CInt>.size))
    let output = LogOutput(.standardError(priorityPrefix: true), standardError: writer.rawValue)
    let logger = Logger(level: .info, sink: output)
    // Lines longer than half the send buffer go out in two parts, and the socket may take the
    // first alone.
    for n in 0..<100 { logger.info(Self.message(n, bytes: 40_000)) }
    #expect(!Self.isNonBlocking(writer))
    try reader.setNonBlocking()
    var data = Self.readBytes(reader)
    #expect(data.last != 0x0A, "the socket took the first part of a line")
    let dropped = output.droppedCount
    logger.info(Self.message(100, bytes: 40_000))
    data += Self.readBytes(reader)
    let (written, counted) = Self.expectWhole(Self.lines(data), bytes: 40_000)
    #expect(data.last == 0x0A, "the rest, the count and the last line went out whole")
    #expect(dropped > 0 && written + counted == 101 && output.droppedCount == 0)
  }

  @Test func aPipeThatCannotBeOpenedAgainIsWrittenOnlyWhenPollSaysRoom() throws {
    try TemporaryFolder.with { folder in
      let fifo = folder.file("log")
      #expect(mkfifo(fifo, 0o600) == 0)
      var reader = FileDescriptor(rawValue: open(fifo, O_RDONLY | O_NONBLOCK))
      let writer = FileDescriptor(rawValue: open(fifo, O_WRONLY))
      defer { writer.close() }
      reader.close()  // no reader: opening the FIFO again for writing fails (ENXIO)
      let output = LogOutput(.standardError(priorityPrefix: true), standardError: writer.rawValue)
      let logger = Logger(level: .info, sink: output)
      logger.info("nobody reads")
      #expect(output.droppedCount == 1)
      reader = FileDescriptor(rawValue: open(fifo, O_RDONLY | O_NONBLOCK))
      defer { reader.close() }
      for n in 0..<2000 { logger.info(Self.message(n)) }
      #expect(!Self.isNonBlocking(writer))
      let lines = Self.readAll(reader)
      #expect(lines.first == "<4>1 log line dropped while the log was not being read.")
      let (written, counted) = Self.expectWhole(Array(lines.dropFirst()))
      #expect(written > 0 && output.droppedCount == 2000 - written - counted)
    }
  }

  @Test func aRegularFileIsWrittenAsItIsAndKeepsItsAppendMode() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("log")
      let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      defer { Glibc.close(fd) }
      _ = Glibc.write(fd, "first\n", 6)
      lseek(fd, 0, SEEK_SET)
      let logger = Logger(level: .info, sink: LogOutput(.standardError(priorityPrefix: true), standardError: fd))
      logger.info("second")
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text == "first\n<6>second\n")
    }
  }

  /// Two threads log at once, a third reads: every line is whole, and the lines read plus the
  /// counts reported are exactly the lines logged.
  @Test func linesFromTwoThreadsAreWholeAndEachIsWrittenOrCounted() throws {
    let ends = try FileDescriptor.pipe(nonBlockingRead: false, nonBlockingWrite: false)
    defer { ends.read.close() }
    let reading = DispatchGroup()
    nonisolated(unsafe) var data: [UInt8] = []
    DispatchQueue.global().async(group: reading) { data = Self.readBytes(ends.read) }
    var logged = 10_000
    do {
      let output = LogOutput(.standardError(priorityPrefix: true), standardError: ends.write.rawValue)
      let logger = Logger(level: .info, sink: output)
      DispatchQueue.concurrentPerform(iterations: 2) { thread in
        for n in 0..<5000 { logger.info(Self.message(thread * 5000 + n)) }
      }
      // Whether the reader kept up or not, a line that goes out sends the count first.
      while output.droppedCount > 0 {
        logger.info(Self.message(logged))
        logged += 1
        usleep(1000)
      }
    }
    ends.write.close()
    reading.wait()
    let (written, counted) = Self.expectWhole(Self.lines(data))
    #expect(written + counted == logged)
  }
}
