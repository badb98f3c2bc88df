import Foundation
import Testing

/// badged started the way systemd starts it from badged.socket, with `systemd-socket-activate`:
/// the socket exists before the daemon, which inherits it as fd 3.
@Suite struct SocketActivationTests {
  /// `systemd-socket-activate -l <socket> ... badged`, which waits for the first connection and
  /// only then execs badged. Its environment holds only what `-E` passes; `BADGED_SOCKET` points
  /// at a path of the test's own, where badged must never bind when given a socket.
  final class Activated {
    let folder: TemporaryFolder
    /// The sockets `systemd-socket-activate` listens on; badged gets them from fd 3 on.
    let sockets: [String]
    let process: Child
    let logPath: String
    var socket: String { sockets[0] }
    var ownSocket: String { folder.file("own.sock") }

    init(socketCount: Int = 1, datagram: Bool = false) throws {
      try Binaries.check()
      let folder = try TemporaryFolder()
      self.folder = folder
      sockets = (1...socketCount).map { folder.file("badged\($0).sock") }
      logPath = folder.file("activate.log")
      _ = FileManager.default.createFile(atPath: logPath, contents: nil)
      let arguments =
        ["/usr/bin/systemd-socket-activate"] + sockets.flatMap { ["-l", $0] }
        + (datagram ? ["--datagram"] : [])
        + [
          "-E", "XDG_CONFIG_HOME=\(folder.path)", "-E", "BADGED_SOCKET=\(folder.file("own.sock"))",
          Binaries.badged.path, "--state-dir", folder.file("state"),
        ]
      process = try Child(arguments, environment: Child.environment(), stderr: .file(logPath))
      // Its own report that a socket listens: the file exists from bind(2), before listen(2),
      // and a client that connects in between is refused.
      guard waitUntil(timeout: 5, { self.sockets.allSatisfy { self.log.contains("Listening on \($0) as ") } }) else {
        throw TestFailure("systemd-socket-activate did not listen: \(log)")
      }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status.
    func stop() -> Int32 {
      process.signal(SIGTERM)
      return process.wait()
    }

    func exitStatus() -> Int32 { process.wait() }
  }

  @Test func theFirstRequestSentBeforeTheDaemonRanIsAnswered() throws {
    let activated = try Activated()
    #expect(!activated.log.contains("Execing"), "badged starts only on the first connection")
    let first = try RawClient(path: activated.socket)
    try first.send("INCR mail\n")
    #expect(try first.readReply(timeout: 10).first?.hasPrefix("STATE mail count=1 ") == true)
    #expect(activated.log.contains("(passed by the service manager)"), "\(activated.log)")
    // The same socket serves every later client too.
    #expect(try RawClient(path: activated.socket).request("GET mail")[0].hasPrefix("STATE mail count=1 "))
    #expect(try badgectl(["incr", "mail"], socket: activated.socket).stdout.hasPrefix("mail 2"))
  }

  @Test func theInheritedSocketIsNeverUnlinked() throws {
    let activated = try Activated()
    let before = try FileManager.default.attributesOfItem(atPath: activated.socket)[.systemFileNumber] as? Int
    _ = try RawClient(path: activated.socket).request("PING")
    #expect(activated.stop() == 0)
    #expect(FileManager.default.fileExists(atPath: activated.socket), "the service manager owns the socket file")
    let after = try FileManager.default.attributesOfItem(atPath: activated.socket)[.systemFileNumber] as? Int
    #expect(before == after, "not replaced by a socket of badged's own")
  }

  @Test func moreThanOneSocketIsRefused() throws {
    let activated = try Activated(socketCount: 2)
    _ = try? RawClient(path: activated.socket)  // the first connection starts badged
    #expect(activated.exitStatus() == 1)
    #expect(activated.log.contains("passed 2 sockets"), "\(activated.log)")
    #expect(!FileManager.default.fileExists(atPath: activated.ownSocket), "no socket of its own instead")
  }

  @Test func aDatagramSocketIsRefused() throws {
    let activated = try Activated(datagram: true)
    // The first datagram starts badged.
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(fd) }
    var address = unixAddress(activated.socket)
    let sent = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        sendto(fd, "INCR mail\n", 10, 0, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(sent == 10)
    #expect(activated.exitStatus() == 1)
    #expect(activated.log.contains("is not a listening Unix stream socket"), "\(activated.log)")
    #expect(!FileManager.default.fileExists(atPath: activated.ownSocket))
  }
}
