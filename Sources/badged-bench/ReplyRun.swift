import Glibc

/// One large reply (`STATS year`, `LIST`, a `WATCH` snapshot) read while a fresh client
/// connects every `ping-interval-ms` to send one PING: what a status bar meets while another
/// client asks for a lot. With `--hold-seconds S` the reader sends its request and reads
/// nothing for S seconds first (a client that stops reading); with `--server-pid` the
/// server's resident memory is read at the end of that hold and its peak at the end. Reports
/// the reply's size, the time from the request to its first byte (a reply built whole before
/// it is sent holds the server that long) and to its status line, and the PING latencies.
struct ReplyRun {
  let options: Options
  let wire: Wire

  func run() {
    if wire.kind != .badged { usageError("--mode reply is badged's") }
    let pinger = Pinger(socket: options.socket, wire: wire, intervalMs: options.pingIntervalMs)
    let fd = connectUnix(options.socket, nonBlocking: false)
    let started = monotonicNanos()
    if !sendAll(fd, Array((options.request + "\n").utf8)) { fail("reply: sending the request failed") }
    var held = ""
    if options.holdSeconds > 0 {
      usleep(UInt32(options.holdSeconds * 1_000_000))
      if let pid = options.serverPID { held = ",\"rss_held_kb\":\(statusKiB(pid, "VmRSS"))" }
    }
    let reply = ReplyCounter(fd: fd)
    reply.readToStatus(Deadline(seconds: options.timeoutSeconds))
    let elapsed = monotonicNanos() - started
    let firstByte = options.holdSeconds > 0 ? "" : ",\"first_byte_seconds\":\(seconds(reply.firstByte - started))"
    close(fd)
    let pings = pinger.stop()
    let peak = options.serverPID.map { ",\"hwm_kb\":\(statusKiB($0, "VmHWM"))" } ?? ""
    emit(
      "{\"mode\":\"reply\",\"request\":\"\(options.request)\",\"reply_bytes\":\(reply.bytes),"
        + "\"reply_lines\":\(reply.lines),\"status\":\"\(reply.status)\",\"seconds\":\(seconds(elapsed))\(firstByte),"
        + "\"hold_seconds\":\(options.holdSeconds)\(held)\(peak),\"pings\":\(pings.count),"
        + "\(pings.json(prefix: "ping_"))}"
    )
  }

  /// A field of `/proc/PID/status`, in KiB (`VmRSS`, `VmHWM`); 0 when it cannot be read.
  private func statusKiB(_ pid: Int32, _ field: String) -> Int {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      guard text.hasPrefix(field + ":") else { continue }
      return Int(text.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
    }
    return 0
  }
}

/// Reads a reply as fast as it comes, counting its bytes and lines, up to its status line
/// (`OK…`; an `ERR…` ends the run), without keeping the lines.
final class ReplyCounter {
  let fd: Int32
  private(set) var bytes = 0
  private(set) var lines = 0
  private(set) var status = ""
  /// When the first bytes arrived (monotonic nanoseconds).
  private(set) var firstByte: UInt64 = 0
  /// The line being read: its length so far, and its first two bytes (all of it once they
  /// say it is a status line).
  private var length = 0
  private var kept: [UInt8] = []
  private var isStatus = false

  init(fd: Int32) { self.fd = fd }

  func readToStatus(_ deadline: Deadline) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while status.isEmpty {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { fail("reply: the connection ended after \(lines) lines") }
      if bytes == 0 { firstByte = monotonicNanos() }
      bytes += n
      for byte in buffer[..<n] {
        guard byte != 0x0A else {
          lines += 1
          if isStatus {
            status = String(decoding: kept, as: UTF8.self)
            if status.hasPrefix("ERR") { fail("reply: \(status)") }
            break
          }
          length = 0
          kept.removeAll(keepingCapacity: true)
          continue
        }
        if length < 2 || isStatus { kept.append(byte) }
        length += 1
        if length == 2 {
          isStatus =
            (kept[0] == UInt8(ascii: "O") && kept[1] == UInt8(ascii: "K"))
            || (kept[0] == UInt8(ascii: "E") && kept[1] == UInt8(ascii: "R"))
        }
      }
      deadline.check("\(lines) lines of the reply read")
    }
  }
}
