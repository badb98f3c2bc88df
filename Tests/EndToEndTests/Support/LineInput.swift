import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Lines read from a file descriptor (a socket or a pipe) with a deadline: the one reading
/// loop of the test clients.
struct LineInput {
  let fd: Int32
  private(set) var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  /// The next line without its LF; `nil` at end of file.
  ///
  /// - Throws: `TestFailure` when no line comes within `timeout` seconds, or on a read error.
  mutating func next(timeout: Double, what: @autoclosure () -> String) throws -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let lf = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<lf], as: UTF8.self)
        buffer.removeSubrange(...lf)
        return line
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else {
        throw TestFailure(
          "no line from \(what()) within \(timeout) s; have '\(String(decoding: buffer, as: UTF8.self))'")
      }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n == 0 { return nil }
      guard n > 0 else { throw TestFailure("reading \(what()) failed: errno \(errno)") }
      buffer += chunk[..<n]
    }
  }
}
