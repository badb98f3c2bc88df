import BadgeCore
import BadgeLog
import BadgeSystem
import Foundation
import Glibc
import Testing

/// journald's two protocols as the daemon speaks them, against sockets the test binds where
/// journald's would be: native entries that never wait for a journald that is behind, and a
/// stream of a hook's own.
@Suite struct JournaldTests {
  /// A Unix socket of `type` bound at `path`.
  static func bound(_ path: String, _ type: Int32, listen backlog: Int32? = nil) -> FileDescriptor {
    let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: Array(path.utf8))
      raw[path.utf8.count] = 0
    }
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if let backlog { _ = listen(fd, backlog) }
    return FileDescriptor(rawValue: fd)
  }

  /// The datagrams waiting on `fd`, each an entry's fields; a field in the binary form (its
  /// value has a line feed) is read by its length.
  static func entries(_ fd: FileDescriptor) -> [[String: String]] {
    var result: [[String: String]] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let n = recv(fd.rawValue, &buffer, buffer.count, Int32(MSG_DONTWAIT)), n > 0 {
      var entry: [String: String] = [:]
      var i = 0
      while i < n {
        let end = buffer[i..<n].firstIndex(of: 0x0A)!
        let line = buffer[i..<end]
        if let eq = line.firstIndex(of: UInt8(ascii: "=")) {
          entry[String(decoding: line[..<eq], as: UTF8.self)] = String(decoding: line[(eq + 1)...], as: UTF8.self)
          i = end + 1
        } else {
          let length = buffer[(end + 1)..<(end + 9)].reversed().reduce(0) { $0 << 8 | Int($1) }
          entry[String(decoding: line, as: UTF8.self)] = String(
            decoding: buffer[(end + 9)..<(end + 9 + length)], as: UTF8.self)
          i = end + 9 + length + 1
        }
      }
      result.append(entry)
    }
    return result
  }

  @Test func entriesCarryTheirFieldsAndALineFeedIsKeptInTheBinaryForm() throws {
    try TemporaryFolder.with { folder in
      let journal = Self.bound(folder.file("socket"), Int32(SOCK_DGRAM.rawValue))
      defer { journal.close() }
      let logger = Logger(
        level: .info, identifier: "badged",
        sink: LogOutput(.journal, standardError: -1, journalPath: folder.file("socket")))
      logger.warning("two\nlines", [.channel(ChannelName("mail")!), .clientPID(42)])
      #expect(
        Self.entries(journal) == [
          [
            "MESSAGE": "two\nlines", "PRIORITY": "4", "SYSLOG_IDENTIFIER": "badged", "CHANNEL": "mail",
            "CLIENT_PID": "42",
          ]
        ])
    }
  }

  @Test func aJournaldThatIsBehindMakesNothingWaitAndGetsTheCountFirst() throws {
    try TemporaryFolder.with { folder in
      let journal = Self.bound(folder.file("socket"), Int32(SOCK_DGRAM.rawValue))
      defer { journal.close() }
      let output = LogOutput(.journal, standardError: -1, journalPath: folder.file("socket"))
      let logger = Logger(level: .info, sink: output)
      for n in 0..<1000 { logger.info("entry \(n)") }
      let taken = Self.entries(journal)
      #expect(taken.count > 0 && taken.count < 1000, "journald's queue holds net.unix.max_dgram_qlen entries")
      #expect(taken.map { $0["MESSAGE"] } == (0..<taken.count).map { "entry \($0)" })
      #expect(output.droppedCount == 1000 - taken.count)
      logger.info("after")
      #expect(
        Self.entries(journal).map { [$0["MESSAGE"], $0["PRIORITY"]] } == [
          ["\(1000 - taken.count) log lines dropped while the log was not being read.", "4"], ["after", "6"],
        ])
    }
  }

  @Test func withoutJournaldLinesGoToStandardErrorWithTheirPriority() throws {
    try TemporaryFolder.with { folder in
      let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
      defer {
        ends.read.close()
        ends.write.close()
      }
      let logger = Logger(
        level: .info, sink: LogOutput(.journal, standardError: ends.write.rawValue, journalPath: folder.file("none")))
      logger.error("no journald")
      #expect(LogOutputTests.readAll(ends.read) == ["<3>no journald"])
    }
  }

  @Test func aStreamStartsWithItsHeaderAndIsHandedOnBlocking() throws {
    try TemporaryFolder.with { folder in
      let listener = Self.bound(folder.file("stdout"), Int32(SOCK_STREAM.rawValue), listen: 4)
      defer { listener.close() }
      let stream = try Journald.openStream(identifier: "badged-hook", priority: .info, path: folder.file("stdout"))
      defer { stream.close() }
      #expect(fcntl(stream.rawValue, F_GETFL) & O_NONBLOCK == 0, "a child's output blocks as usual")
      #expect(fcntl(stream.rawValue, F_GETFD) & FD_CLOEXEC != 0, "only the child it is handed to keeps it")
      try stream.writeAll("a hook's line\n".utf8, socket: true)
      let accepted = FileDescriptor(rawValue: accept(listener.rawValue, nil, nil))
      defer { accepted.close() }
      var buffer = [UInt8](repeating: 0, count: 256)
      var got: [UInt8] = []
      while got.count < 36, case let n = read(accepted.rawValue, &buffer, buffer.count), n > 0 { got += buffer[..<n] }
      #expect(String(decoding: got, as: UTF8.self) == "badged-hook\n\n6\n1\n0\n0\n0\na hook's line\n")
    }
  }

  @Test func aStreamJournaldDoesNotTakeNowFailsAtOnce() throws {
    try TemporaryFolder.with { folder in
      #expect(throws: SystemError.self) {
        try Journald.openStream(identifier: "badged-hook", priority: .info, path: folder.file("none"))
      }
      // A listener that accepts nothing: its backlog fills, and the next connection is refused
      // at once (EAGAIN) instead of waiting for room.
      let listener = Self.bound(folder.file("stdout"), Int32(SOCK_STREAM.rawValue), listen: 0)
      defer { listener.close() }
      var streams: [FileDescriptor] = []
      defer { streams.forEach { $0.close() } }
      var refused: SystemError?
      for _ in 0..<16 where refused == nil {
        do throws(SystemError) {
          streams.append(try Journald.openStream(identifier: "x", priority: .info, path: folder.file("stdout")))
        } catch {
          refused = error
        }
      }
      #expect(refused?.errno == Errno(rawValue: EAGAIN), "\(String(describing: refused))")
    }
  }
}
