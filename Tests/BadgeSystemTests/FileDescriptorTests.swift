import BadgeCore
import BadgeSystem
import Foundation
import Glibc
import Testing

/// Reads and writes over `socketpair`, and the descriptor flags.
@Suite struct FileDescriptorTests {
  @Test func anEmptyNonBlockingSocketWouldBlock() throws {
    try withSocketPair { a, _ throws in
      #expect(try a.receive() == (.wouldBlock, ""))
    }
  }

  @Test func bytesWrittenOnOneEndAreReadOnTheOther() throws {
    try withSocketPair { a, b throws in
      try a.send("hello")
      #expect(try b.receive() == (.processed(5), "hello"))
      try b.send("back")
      #expect(try a.receive() == (.processed(4), "back"))
      #expect(try a.receive() == (.wouldBlock, ""))
    }
  }

  @Test func aSmallBufferReadsInParts() throws {
    try withSocketPair { a, b throws in
      try a.send("0123456789")
      #expect(try b.receive(upTo: 4) == (.processed(4), "0123"))
      #expect(try b.receive(upTo: 4) == (.processed(4), "4567"))
      #expect(try b.receive(upTo: 4) == (.processed(2), "89"))
    }
  }

  @Test func anEmptyBufferReadsNothingWithoutEndOfFile() throws {
    try withSocketPair { a, b throws in
      try a.send("x")
      #expect(try b.receive(upTo: 0) == (.processed(0), ""))
      #expect(try b.receive() == (.processed(1), "x"))
    }
  }

  @Test func aClosedPeerIsEndOfFileAfterItsData() throws {
    var fds: [CInt] = [-1, -1]
    #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
    let (a, b) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    defer { a.close() }
    try b.send("last")
    b.close()
    #expect(try a.receive() == (.processed(4), "last"))
    #expect(try a.receive() == (.endOfFile, ""))
    #expect(try a.receive() == (.endOfFile, ""), "and stays so")
  }

  @Test func writingToAClosedSocketIsBrokenPipeNotASignal() throws {
    var fds: [CInt] = [-1, -1]
    #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &fds) == 0)
    let (a, b) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    defer { a.close() }
    b.close()
    // Without MSG_NOSIGNAL this would raise SIGPIPE and end the test process.
    #expect(throws: Errno.brokenPipe) {
      try a.send("x")
    }
  }

  @Test func aFullSocketWouldBlockUntilTheOtherEndReads() throws {
    try withSocketPair { a, b throws in
      let chunk = [UInt8](repeating: 0x61, count: 65536)
      var written = 0
      var result = IOResult.processed(0)
      while case .processed(let n) = result {
        written += n
        result = try chunk.withUnsafeBytes { raw throws(Errno) in try a.write(raw, socket: true) }
        #expect(written < 64 << 20, "a socket buffer is not that large")
        if written >= 64 << 20 { return }
      }
      #expect(result == .wouldBlock)
      #expect(written > 0)
      var drained = 0
      while case (.processed(let n), _) = try b.receive(upTo: 65536) { drained += n }
      #expect(drained == written)
      #expect(try chunk.withUnsafeBytes { raw throws(Errno) in try a.write(raw, socket: true) } != .wouldBlock)
    }
  }

  @Test func writeAllWaitsForRoomOnANonBlockingSocket() throws {
    try withSocketPair { a, b throws in
      let total = 4 << 20  // more than a socket buffer holds
      let reader = Thread {
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        var poller = pollfd(fd: b.rawValue, events: Int16(POLLIN), revents: 0)
        while received < total {
          _ = poll(&poller, 1, 5000)
          let n = buffer.withUnsafeMutableBytes { Glibc.read(b.rawValue, $0.baseAddress, $0.count) }
          if n > 0 { received += n } else if n == 0 || errno != EAGAIN { break }
        }
        let text = "\(received)\n"
        _ = text.withCString { Glibc.write(b.rawValue, $0, strlen($0)) }
      }
      reader.start()
      try a.writeAll([UInt8](repeating: 0x62, count: total), socket: true)
      var poller = pollfd(fd: a.rawValue, events: Int16(POLLIN), revents: 0)
      #expect(poll(&poller, 1, 10_000) == 1)
      #expect(try a.receive() == (.processed("\(total)\n".utf8.count), "\(total)\n"))
    }
  }

  @Test func nonBlockingAndCloseOnExecFlags() throws {
    var fds: [CInt] = [-1, -1]
    #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &fds) == 0)
    let (a, b) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    defer {
      a.close()
      b.close()
    }
    #expect(a.statusFlags & O_NONBLOCK == 0)
    #expect(a.descriptorFlags & FD_CLOEXEC == 0)
    try a.setNonBlocking()
    #expect(a.statusFlags & O_NONBLOCK != 0)
    #expect(try a.receive() == (.wouldBlock, ""))
    try a.setNonBlocking(false)
    #expect(a.statusFlags & O_NONBLOCK == 0)
    try a.setCloseOnExec()
    #expect(a.descriptorFlags & FD_CLOEXEC != 0)
    #expect(!a.isTerminal)
  }

  @Test func anInvalidDescriptorThrowsItsErrno() {
    let bad = FileDescriptor(rawValue: -1)
    #expect(throws: Errno(rawValue: EBADF)) { try bad.receive() }
    #expect(throws: Errno(rawValue: EBADF)) { try bad.setNonBlocking() }
    #expect(throws: Errno(rawValue: EBADF)) { try bad.setCloseOnExec() }
  }

  @Test func standardDescriptors() {
    #expect(FileDescriptor.standardInput.rawValue == 0)
    #expect(FileDescriptor.standardOutput.rawValue == 1)
    #expect(FileDescriptor.standardError.rawValue == 2)
  }

  @Test func errorsReadTheSystemdWay() {
    #expect(Errno.noSuchFile.description == "No such file or directory")
    #expect(Errno.wouldBlock == Errno(rawValue: EWOULDBLOCK))
    #expect(SystemError("open 'x'", .permissionDenied).description == "Failed to open 'x': Permission denied")
    #expect(SystemError("bind to '/s'", .addressInUse).description == "Failed to bind to '/s': Address already in use")
  }
}
