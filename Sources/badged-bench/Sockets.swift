import Glibc

/// Nanoseconds of the monotonic clock.
func monotonicNanos() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// CPU time of this process (every thread), in nanoseconds.
func processCPUNanos() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The generator's own busyness over a measured stretch: `"generator_cpu":0.42` is 42 % of one
/// core. Near 1 (with one thread) the generator, not the server, may be what bounds the run.
struct GeneratorLoad {
  private let wall = monotonicNanos()
  private let cpu = processCPUNanos()

  var json: String {
    let share = Double(processCPUNanos() - cpu) / Double(max(monotonicNanos() - wall, 1))
    return "\"generator_cpu\":\(Double(Int(share * 100)) / 100)"
  }
}

private func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  if bytes.count >= MemoryLayout.size(ofValue: address.sun_path) { fail("socket path too long: \(path)") }
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
  }
}

/// A connected stream socket, or nil with errno set (the start-up mode polls with this).
func tryConnectUnix(_ path: String) -> Int32? {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  if fd < 0 { fail("socket: errno \(errno)") }
  if withAddress(path, { connect(fd, $0, $1) }) == 0 { return fd }
  let saved = errno
  close(fd)
  errno = saved
  return nil
}

/// A connected socket; a failure ends the run. Blocking connect, then non-blocking when asked.
func connectUnix(_ path: String, nonBlocking: Bool) -> Int32 {
  guard let fd = tryConnectUnix(path) else { fail("cannot connect to \(path): errno \(errno)") }
  if nonBlocking { setNonBlocking(fd) }
  return fd
}

func listenUnix(_ path: String) -> Int32 {
  unlink(path)
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0, withAddress(path, { bind(fd, $0, $1) }) == 0, listen(fd, 4096) == 0 else {
    fail("cannot listen on \(path): errno \(errno)")
  }
  setNonBlocking(fd)
  return fd
}

func setNonBlocking(_ fd: Int32) {
  _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
}

/// Sends all of `bytes` on a blocking socket.
func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
  var sent = 0
  while sent < bytes.count {
    let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
    if n <= 0 { return false }
    sent += n
  }
  return true
}
