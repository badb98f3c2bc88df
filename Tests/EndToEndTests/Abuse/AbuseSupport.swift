import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A field of `/proc/PID/status` in KiB: `VmRSS` (resident now) or `VmHWM` (the peak).
func memoryKiB(_ pid: Int32, _ field: String = "VmHWM") throws -> Int {
  let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    let words = line.dropFirst(field.count + 1).split { $0 == " " || $0 == "\t" }
    if let kib = Int(words.first ?? "") { return kib }
  }
  throw TestFailure("no \(field) in /proc/\(pid)/status")
}

/// What every abuse test checks after its flood: the daemon still runs, a new client is
/// served (a round trip), and its peak resident memory stayed under `peakMiB`. The peak is
/// printed, so that a run of the suite reports it.
func expectHealthy(
  _ daemon: DaemonProcess, peakMiB: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(daemon.isRunning, "the daemon died: \(daemon.log)", sourceLocation: sourceLocation)
  #expect(try daemon.client().request("PING") == ["OK pong"], sourceLocation: sourceLocation)
  let peak = try memoryKiB(daemon.pid)
  print("abuse: \(what): peak RSS \(peak / 1024) MiB (\(peak) KiB), bound \(peakMiB) MiB")
  #expect(peak < peakMiB << 10, "peak RSS \(peak) KiB", sourceLocation: sourceLocation)
}

/// A channel's count through a new connection.
func count(_ channel: String, _ daemon: DaemonProcess) throws -> Int {
  Int(try field(daemon.client().request("GET \(channel)")[0], "count") ?? "") ?? -1
}

/// Sends all of `bytes` to `fd` from another thread, so that the caller can read the replies
/// meanwhile (a client that only writes would stall on the daemon's back-pressure).
func sendInBackground(_ bytes: [UInt8], to fd: Int32) -> DispatchGroup {
  let group = DispatchGroup()
  DispatchQueue.global().async(group: group) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      offset += n
    }
  }
  return group
}

extension RawClient {
  /// Every line up to and including `last`.
  func readLines(through last: String, timeout: Double = 30) throws -> [String] {
    var lines: [String] = []
    while let line = try readLine(timeout: timeout) {
      lines.append(line)
      if line == last { return lines }
    }
    throw TestFailure("connection closed before '\(last)' after \(lines.count) lines")
  }
}

/// What the daemon answers to raw bytes, by the protocol's framing: one reply line per line
/// that is not blank, a line over 4096 bytes counting once.
func expectedReplyCount(_ bytes: [UInt8]) -> Int {
  var replies = 0
  for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
    let body = line.last == 0x0D ? line.dropLast() : line[...]
    if body.count > 4096 {
      replies += 1
    } else if body.contains(where: { $0 != 0x20 && $0 != 0x09 }) {
      replies += 1
    }
  }
  return replies
}

/// The state letter of `/proc/PID/stat` (`R`, `S`, `T` when stopped, …).
func processState(_ pid: Int32) -> String? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return nil }
  return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
}
