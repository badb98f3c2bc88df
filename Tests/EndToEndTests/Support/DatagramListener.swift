import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A Unix datagram socket the tests bind and read, standing in for the service manager's
/// `NOTIFY_SOCKET` (sd_notify) or journald's socket: each datagram is one message.
final class DatagramListener {
  let path: String
  let fd: Int32
  /// Every message received so far, in order.
  private(set) var received: [String] = []

  init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = unixAddress(path)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else { throw TestFailure("bind to \(path) failed: errno \(errno)") }
  }

  deinit { Glibc.close(fd) }

  /// The next message, waiting up to `timeout` seconds; `nil` when none came.
  func next(timeout: Double = 10) -> String? {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    let message = String(decoding: buffer[..<n], as: UTF8.self)
    received.append(message)
    return message
  }

  /// Reads messages until one satisfies `match`, within `timeout` seconds overall.
  func next(timeout: Double = 10, matching match: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      if let message = next(timeout: deadline.timeIntervalSinceNow), match(message) { return message }
    }
    throw TestFailure("no matching message within \(timeout) s; received \(received)")
  }
}
