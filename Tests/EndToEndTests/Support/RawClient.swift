import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A protocol client over a raw Unix socket: sends exact bytes and reads lines with a timeout.
final class RawClient {
  let fd: Int32
  private var input: LineInput

  init(path: String) throws {
    // Connect before the object exists: a class whose initializer throws after setting every
    // property is deinitialized, and `deinit` would close the descriptor a second time, which
    // by then may belong to another test.
    fd = try RawClient.connect(path)
    input = LineInput(fd: fd)
  }

  private static func connect(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
    var address = unixAddress(path)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let e = errno
      Glibc.close(fd)
      throw TestFailure("connect to \(path) failed: errno \(e)")
    }
    return fd
  }

  static func canConnect(_ path: String) -> Bool {
    guard let client = try? RawClient(path: path) else { return false }
    client.close()
    return true
  }

  deinit { Glibc.close(fd) }

  func close() { shutdown(fd, Int32(SHUT_RDWR)) }

  /// Sends exactly these bytes.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { throw TestFailure("send failed: errno \(errno)") }
      offset += n
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// The next line (without LF), or nil when the daemon closed the connection.
  func readLine(timeout: Double = 10) throws -> String? {
    try input.next(timeout: timeout, what: "the daemon")
  }

  /// Reads lines up to and including the next status line (`OK…` or `ERR…`).
  func readReply(timeout: Double = 10) throws -> [String] {
    var lines: [String] = []
    while let line = try readLine(timeout: timeout) {
      lines.append(line)
      if line == "OK" || line.hasPrefix("OK ") || line.hasPrefix("ERR ") { return lines }
    }
    throw TestFailure("connection closed inside a reply: \(lines)")
  }

  /// Sends one request line and returns its whole reply.
  func request(_ line: String) throws -> [String] {
    try send(line + "\n")
    return try readReply()
  }

  /// Every line that arrives until none has come for `quiet` seconds.
  func drain(quiet: Double = 1) throws -> [String] {
    var lines: [String] = []
    while true {
      guard let line = try? readLine(timeout: quiet) else { return lines }  // quiet, or closed
      lines.append(line)
    }
  }
}

/// The `sockaddr_un` of a socket path.
func unixAddress(_ path: String) -> sockaddr_un {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    let bytes = Array(path.utf8)
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  return address
}

/// The value of `key=` in a STATE or EVENT line.
func field(_ line: String, _ key: String) -> String? {
  for word in line.split(separator: " ") where word.hasPrefix(key + "=") {
    return String(word.dropFirst(key.count + 1))
  }
  return nil
}

/// A state line without its `pulse=` field, which changes with time alone.
func withoutPulse(_ line: String) -> String {
  line.split(separator: " ").filter { !$0.hasPrefix("pulse=") }.joined(separator: " ")
}
