import BadgeCore
import BadgeSystem
import Glibc
import Testing

/// `lstat` of `path`, or `nil` when nothing is there.
func fileStatus(_ path: String) -> stat? {
  var status = stat()
  return lstat(path, &status) == 0 ? status : nil
}

/// A connected pair of non-blocking stream sockets, closed when `body` returns.
func withSocketPair<R>(_ body: (FileDescriptor, FileDescriptor) throws -> R) throws -> R {
  var fds: [CInt] = [-1, -1]
  let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
  guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw Errno.current }
  let (a, b) = (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
  defer {
    a.close()
    b.close()
  }
  return try body(a, b)
}

extension FileDescriptor {
  /// Writes `text` and expects all of it to go at once.
  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    let result = try bytes.withUnsafeBytes { raw throws(Errno) in try write(raw, socket: true) }
    #expect(result == .processed(bytes.count))
  }

  /// Reads what is there now, as text ("" when nothing was read).
  func receive(upTo count: Int = 4096) throws -> (IOResult, String) {
    var buffer = [UInt8](repeating: 0, count: count)
    let result = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try read(into: raw) }
    guard case .processed(let n) = result else { return (result, "") }
    return (result, String(decoding: buffer[..<n], as: UTF8.self))
  }

  /// The `fcntl` status flags (`F_GETFL`).
  var statusFlags: CInt { fcntl(rawValue, F_GETFL) }
  /// The `fcntl` descriptor flags (`F_GETFD`).
  var descriptorFlags: CInt { fcntl(rawValue, F_GETFD) }
}
