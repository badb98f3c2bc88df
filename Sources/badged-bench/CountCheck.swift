import Glibc

/// Reads counts back over a connection of its own: the runs check that the server holds
/// exactly the changes they were acknowledged (a count mismatch fails the run).
struct CountCheck {
  let socket: String
  let wire: Wire

  /// The sum of the counts of `channels` (a channel or key never written counts 0).
  func sum(_ channels: [String]) -> Int { counts(channels).reduce(0, +) }

  /// The count of each of `channels`, in order.
  func counts(_ channels: [String]) -> [Int] {
    let fd = connectUnix(socket, nonBlocking: false)
    defer { close(fd) }
    let reader = BlockingLineReader(fd: fd)
    var values: [Int] = []
    values.reserveCapacity(channels.count)
    var next = 0
    while next < channels.count {
      let chunk = channels[next..<min(next + 100, channels.count)]
      if !sendAll(fd, chunk.flatMap { wire.get($0) }) { fail("GET: send failed") }
      for _ in chunk { values.append(readValue(reader)) }
      next += chunk.count
    }
    return values
  }

  /// Reads the sum of `channels` every millisecond until it is `target`, and returns when it
  /// was; a sum past it (a write applied twice) or the deadline ends the run.
  func waitUntil(_ channels: [String], sumIs target: Int, _ deadline: Deadline) -> UInt64 {
    while true {
      let now = sum(channels)
      if now == target { return monotonicNanos() }
      if now > target { fail("count mismatch: the counts reached \(now), past the \(target) expected") }
      deadline.check("the counts are at \(now) of \(target)")
      usleep(1000)
    }
  }

  /// One GET's value: badged's `STATE … count=n` then `OK`; Redis's `$-1`, or `$k` and the value.
  private func readValue(_ reader: BlockingLineReader) -> Int {
    var value = 0
    while true {
      let line = reader.next()
      switch wire.kind {
      case .badged:
        if line.hasPrefix("OK") { return value }
        if line.hasPrefix("STATE ") {
          value = line.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap { Int($0.dropFirst(6)) } ?? -1
        } else {
          fail("GET: unexpected reply \(line)")
        }
      case .redis:
        if line == "$-1" { return 0 }
        guard line.hasPrefix("$"), let number = Int(reader.next()) else { fail("GET: unexpected reply \(line)") }
        return number
      }
    }
  }

  /// Fails the run unless the counts rose by exactly `expected` since `before`.
  func expect(_ channels: [String], before: Int, increasedBy expected: Int) {
    let after = sum(channels)
    if after - before != expected {
      fail(
        "count mismatch: \(expected) increments acknowledged, the server's counts rose by \(after - before) "
          + "(from \(before) to \(after))"
      )
    }
  }
}

/// Lines from a blocking socket, for the few small exchanges outside the measured loops.
final class BlockingLineReader {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  /// The next line without its CR LF or LF; a closed connection ends the run.
  func next() -> String {
    while true {
      if let end = buffer.firstIndex(of: 0x0A) {
        let line = buffer[..<end].last == 0x0D ? buffer[..<(end - 1)] : buffer[..<end]
        defer { buffer.removeFirst(end + 1) }
        return String(decoding: line, as: UTF8.self)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { fail("connection closed while reading a reply") }
      buffer += chunk[..<n]
    }
  }
}
