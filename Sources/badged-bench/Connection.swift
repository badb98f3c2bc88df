import Glibc

/// One non-blocking connection driven by a `Poller`: an input buffer that hands out complete
/// lines, and output the socket did not take yet (sent when it becomes writable).
final class Connection {
  let fd: Int32
  let token: Int
  private let storage: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  private var filled = 0
  private var pending: [UInt8] = []

  init(fd: Int32, token: Int, capacity: Int = 1 << 16) {
    self.fd = fd
    self.token = token
    self.capacity = capacity
    storage = .allocate(capacity: capacity)
  }

  deinit {
    storage.deallocate()
    close(fd)
  }

  enum ReadResult { case data, empty, closed }

  /// One `recv` (the poller is level-triggered: what is left is read on the next turn).
  func read() -> ReadResult {
    if filled == capacity { fail("a reply line longer than \(capacity) bytes") }
    let n = recv(fd, storage + filled, capacity - filled, 0)
    if n > 0 {
      filled += n
      return .data
    }
    if n < 0 && (errno == EAGAIN || errno == EINTR) { return .empty }
    return .closed
  }

  /// Calls `body` with each complete line (without its LF, and a CR before it), in order, and
  /// keeps the unfinished rest for the next read.
  func consumeLines(_ body: (UnsafeRawBufferPointer) -> Void) {
    var start = 0
    while start < filled, let hit = memchr(storage + start, 0x0A, filled - start) {
      let end = hit.assumingMemoryBound(to: UInt8.self) - storage
      body(line(from: start, to: end))
      start = end + 1
    }
    keep(from: start)
  }

  /// Counts the bytes `0x0A` received and drops them all (the echo server needs no more).
  func consumeNewlines() -> Int {
    var count = 0
    var start = 0
    while start < filled, let hit = memchr(storage + start, 0x0A, filled - start) {
      count += 1
      start = hit.assumingMemoryBound(to: UInt8.self) - storage + 1
    }
    filled = 0
    return count
  }

  /// The value of the latest complete line that `parse` reads one from, looking back at most
  /// `limit` lines from the last; every complete line is dropped. A watcher under a burst only
  /// needs the newest value, so it does not parse the thousands of lines before it.
  func consumeLatest(limit: Int = 16, _ parse: (UnsafeRawBufferPointer) -> Int?) -> Int? {
    var end = filled - 1
    while end >= 0 && storage[end] != 0x0A { end -= 1 }
    if end < 0 { return nil }
    let rest = end + 1
    var result: Int?
    var lines = 0
    while end >= 0 && lines < limit && result == nil {
      var start = end - 1
      while start >= 0 && storage[start] != 0x0A { start -= 1 }
      result = parse(line(from: start + 1, to: end))
      end = start
      lines += 1
    }
    keep(from: rest)
    return result
  }

  private func line(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
    let last = end > start && storage[end - 1] == 0x0D ? end - 1 : end
    return UnsafeRawBufferPointer(start: storage + start, count: last - start)
  }

  private func keep(from start: Int) {
    if start == 0 { return }
    if start < filled { memmove(storage, storage + start, filled - start) }
    filled -= start
  }

  /// Sends `bytes` now, and whatever the socket does not take once it is writable again.
  func send(_ bytes: UnsafeRawBufferPointer, poller: Poller) {
    if !pending.isEmpty {
      pending.append(contentsOf: bytes)
      return
    }
    let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    if n == bytes.count { return }
    if n < 0 && errno != EAGAIN && errno != EINTR { fail("send failed: errno \(errno)") }
    pending.append(contentsOf: bytes[max(n, 0)...])
    poller.modify(fd, token: token, writable: true)
  }

  func send(_ bytes: [UInt8], poller: Poller) {
    bytes.withUnsafeBytes { send($0, poller: poller) }
  }

  /// Called when the poller says the socket is writable.
  func flush(poller: Poller) {
    let n = pending.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if n < 0 {
      if errno == EAGAIN || errno == EINTR { return }
      fail("send failed: errno \(errno)")
    }
    pending.removeFirst(n)
    if pending.isEmpty { poller.modify(fd, token: token, writable: false) }
  }
}
