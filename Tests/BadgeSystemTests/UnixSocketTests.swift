import BadgeSystem
import Foundation
import Glibc
import Testing

@Suite struct UnixSocketTests {
  /// Why connecting to `path` failed, or `nil` (and the connection closed) when it worked.
  func connectFailure(_ path: String) -> SystemError? {
    do throws(SystemError) {
      try UnixSocket.connect(path: path).close()
      return nil
    } catch {
      return error
    }
  }

  /// Why listening on `path` failed, or `nil` (and the listener closed) when it worked.
  func listenFailure(_ path: String) -> UnixSocket.ListenError? {
    do throws(UnixSocket.ListenError) {
      try UnixSocket.listen(path: path).close()
      return nil
    } catch {
      return error
    }
  }

  /// The errno of a `.system` listen failure.
  func errno(of error: UnixSocket.ListenError?) -> Errno? {
    guard case .system(let failure) = error else { return nil }
    return failure.errno
  }

  @Test func listenConnectAcceptAndTalk() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.sock")
      let listener = try UnixSocket.listen(path: path)
      defer { listener.close() }
      #expect(listener.statusFlags & O_NONBLOCK != 0, "the listener is non-blocking")
      #expect(try UnixSocket.accept(listener) == nil, "nothing pending")

      let client = try UnixSocket.connect(path: path)
      defer { client.close() }
      #expect(client.statusFlags & O_NONBLOCK == 0, "the client connection blocks")
      let server = try #require(try UnixSocket.accept(listener))
      defer { server.close() }
      #expect(server.statusFlags & O_NONBLOCK != 0)
      #expect(server.descriptorFlags & FD_CLOEXEC != 0)
      #expect(UnixSocket.peerPID(server) == getpid())
      let peer = try #require(UnixSocket.peerCredentials(server))
      #expect(peer.pid == getpid() && peer.uid == getuid() && peer.gid == getgid())

      try client.send("PING\n")
      #expect(try server.receive() == (.processed(5), "PING\n"))
      try server.send("OK pong\n")
      #expect(try client.receive() == (.processed(8), "OK pong\n"))
      #expect(UnixSocket.isServed(path: path))
    }
  }

  @Test func theSocketFileIsPrivate() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.sock")
      let listener = try UnixSocket.listen(path: path)
      defer { listener.close() }
      let status = try #require(fileStatus(path))
      #expect(status.st_mode & S_IFMT == S_IFSOCK)
      #expect(status.st_mode & 0o777 == 0o600)
    }
  }

  @Test func aStaleSocketFileIsReplaced() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.sock")
      // A daemon that crashed: its socket file stays, nobody accepts on it.
      let dead = try UnixSocket.listen(path: path)
      dead.close()
      #expect(fileStatus(path) != nil)
      #expect(!UnixSocket.isServed(path: path))
      #expect(connectFailure(path)?.errno == .connectionRefused)

      let listener = try UnixSocket.listen(path: path)
      defer { listener.close() }
      #expect(UnixSocket.isServed(path: path))
      #expect(try #require(fileStatus(path)).st_mode & 0o777 == 0o600)
    }
  }

  @Test func aLiveSocketIsLeftAlone() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("badged.sock")
      let first = try UnixSocket.listen(path: path)
      defer { first.close() }
      let inode = try #require(fileStatus(path)).st_ino

      let refused = listenFailure(path)
      guard case .alreadyServed(let served) = refused else {
        Issue.record("expected .alreadyServed, got \(String(describing: refused))")
        return
      }
      #expect(served == path)
      #expect(refused?.description == "Another badged is already serving '\(path)', refusing to start")

      #expect(try #require(fileStatus(path)).st_ino == inode, "the file was not replaced")
      let client = try UnixSocket.connect(path: path)
      defer { client.close() }
      // isServed's probe connection is pending too: drain until the client's arrives.
      var accepted: [FileDescriptor] = []
      while let fd = try UnixSocket.accept(first) { accepted.append(fd) }
      defer { accepted.forEach { $0.close() } }
      #expect(!accepted.isEmpty, "the first listener still accepts")
      try client.send("x")
      #expect(try accepted.last!.receive() == (.processed(1), "x"))
    }
  }

  @Test func aFileThatIsNotASocketIsLeftAlone() throws {
    try TemporaryFolder.with { folder in
      let path = try folder.write("notes.txt", "keep me\n")
      let refused = listenFailure(path)
      #expect(errno(of: refused) == .addressInUse)
      #expect(refused?.description == "Failed to bind to '\(path)': Address already in use")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }
  }

  @Test func pathsThatDoNotFitAreRefused() throws {
    #expect(UnixSocket.maxPathLength == 107)
    for path in ["", "/tmp/" + String(repeating: "s", count: 103)] {
      let refused = listenFailure(path)
      #expect(errno(of: refused) == Errno(rawValue: ENAMETOOLONG))
      #expect(refused?.description == "Failed to use socket path '\(path)': File name too long")
      let notConnected = connectFailure(path)
      #expect(notConnected?.errno == Errno(rawValue: ENAMETOOLONG))
      #expect(notConnected?.operation == "use socket path '\(path)'")
    }
  }

  @Test func connectingToNothingSaysWhy() throws {
    try TemporaryFolder.with { folder in
      let path = folder.file("nobody.sock")
      let missing = connectFailure(path)
      #expect(missing?.errno == .noSuchFile)
      #expect(missing?.description == "Failed to connect to '\(path)': No such file or directory")
      #expect(!UnixSocket.isServed(path: path))
    }
  }

  @Test func receiveTimeoutIsSet() throws {
    try withSocketPair { a, _ in
      UnixSocket.setReceiveTimeout(a, seconds: 3)
      var timeout = timeval()
      var length = socklen_t(MemoryLayout<timeval>.size)
      #expect(getsockopt(a.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, &length) == 0)
      #expect(timeout.tv_sec == 3)
      #expect(timeout.tv_usec == 0)
    }
  }
}
