import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A server on a socket of the test's own that plays, on each connection, a part the test
/// writes byte for byte: what `badgectl watch` and `top` meet when what listens on their socket
/// sends what badged never sends. It stands in for no behaviour of the daemon: the tests that
/// use it check the clients' own limits, and that they recover once the server behaves.
final class HostileServer: @unchecked Sendable {
  /// One connection's part, run on a thread of its own; the connection is closed when it returns.
  typealias Part = @Sendable (HostileConnection) throws -> Void

  let folder: TemporaryFolder
  let socket: String
  private let listener: Int32
  /// Whether the listener is closed: `stop()` runs once, whether a test calls it or `deinit`
  /// does (a second `close` would close a descriptor number another test may hold by then).
  private var stopped = false
  private let parts: [Part]
  private let lock = NSLock()
  private var connections: [HostileConnection] = []
  private var failures: [String] = []
  private let running = DispatchGroup()

  /// Listens at once. The first connection plays `parts[0]`, the second `parts[1]`, and so on;
  /// one past the last part is closed at once.
  init(parts: [Part]) throws {
    folder = try TemporaryFolder()
    socket = folder.file("hostile.sock")
    self.parts = parts
    listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
    var address = unixAddress(socket)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 8) == 0 else {
      let error = errno
      stopped = true
      Glibc.close(listener)
      throw TestFailure("listening at \(socket) failed: errno \(error)")
    }
    running.enter()
    Thread { [self] in
      acceptConnections()
      running.leave()
    }.start()
  }

  deinit { stop() }

  /// What went wrong in the parts so far (a client that stopped reading, or closed early).
  var problems: [String] { lock.withLock { failures } }

  /// Ends every part (their reads see the end of the connection) and the listener, and waits
  /// for their threads.
  func stop() {
    guard !stopped else { return }
    stopped = true
    shutdown(listener, Int32(SHUT_RDWR))
    for connection in lock.withLock({ connections }) { connection.shutDown() }
    _ = running.wait(timeout: .now() + 30)
    Glibc.close(listener)
  }

  private func acceptConnections() {
    var served = 0
    while true {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else {
        if errno == EINTR { continue }
        return  // shut down
      }
      guard served < parts.count else {
        Glibc.close(fd)
        continue
      }
      let part = parts[served]
      let number = served
      served += 1
      let connection = HostileConnection(fd: fd)
      lock.withLock { connections.append(connection) }
      running.enter()
      Thread { [self] in
        do {
          try part(connection)
        } catch {
          lock.withLock { failures.append("part \(number): \(error)") }
        }
        connection.shutDown()
        running.leave()
      }.start()
    }
  }
}

/// One connection of a `HostileServer`, from the server's side.
final class HostileConnection: @unchecked Sendable {
  let fd: Int32
  private var input: LineInput

  init(fd: Int32) {
    self.fd = fd
    input = LineInput(fd: fd)
    // A client that stops reading fails the part after a minute instead of hanging the test.
    var limit = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { Glibc.close(fd) }

  /// The next line the client sent, without its LF; `nil` once it closed.
  func readLine(timeout: Double = 60) throws -> String? {
    try input.next(timeout: timeout, what: "the client")
  }

  /// Reads lines until one starts with `prefix`; returns it.
  func readLine(startingWith prefix: String, timeout: Double = 60) throws -> String {
    while let line = try readLine(timeout: timeout) {
      if line.hasPrefix(prefix) { return line }
    }
    throw TestFailure("the client closed the connection before sending '\(prefix)…'")
  }

  /// Sends all of `bytes`, waiting while the client is slow to read them.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw TestFailure("sending to the client failed after \(offset) of \(bytes.count) bytes: errno \(errno)")
      }
      offset += n
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Keeps the connection open, reading and dropping what the client sends, until the client
  /// or the server closes it.
  func holdOpen() throws {
    while try readLine(timeout: 600) != nil {}
  }

  /// Ends the connection both ways; a read in progress sees its end.
  func shutDown() { shutdown(fd, Int32(SHUT_RDWR)) }
}
