import Foundation
import Glibc

// badged-bench: a load generator for badged (and, for comparison, Redis) over a Unix socket.
// Each client is a thread with one connection that keeps `pipeline` requests in flight and
// counts replies; the run ends when every client has had `requests / clients` replies.
//
//   badged-bench --socket PATH [--protocol badged|redis] [--clients N] [--requests N]
//                [--pipeline N] [--channels N] [--command incr|publish]

struct Options {
  var socket = ""
  var protocolName = "badged"
  var clients = 1
  var requests = 100_000
  var pipeline = 1
  var channels = 1
  var command = "incr"
}

func parseOptions() -> Options {
  var options = Options()
  var args = CommandLine.arguments.dropFirst()
  while let flag = args.popFirst() {
    guard let value = args.popFirst() else { fail("missing value for \(flag)") }
    switch flag {
    case "--socket": options.socket = value
    case "--protocol": options.protocolName = value
    case "--clients": options.clients = Int(value) ?? 0
    case "--requests": options.requests = Int(value) ?? 0
    case "--pipeline": options.pipeline = Int(value) ?? 0
    case "--channels": options.channels = Int(value) ?? 0
    case "--command": options.command = value
    default: fail("unknown option \(flag)")
    }
  }
  guard !options.socket.isEmpty, options.clients > 0, options.requests > 0, options.pipeline > 0,
    options.channels > 0, ["badged", "redis"].contains(options.protocolName),
    ["incr", "publish"].contains(options.command)
  else { fail("usage: badged-bench --socket PATH [--protocol badged|redis] [--clients N] [--requests N] [--pipeline N] [--channels N] [--command incr|publish]") }
  return options
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(("badged-bench: " + message + "\n").data(using: .utf8)!)
  exit(2)
}

/// The request bytes for channel `i`, and how to count replies in received bytes.
struct Wire {
  let requests: [[UInt8]]
  /// Bytes that end one reply: badged's status line starts after "\n" with "OK"; Redis's
  /// integer reply is one line.
  let isRedis: Bool

  init(_ options: Options) {
    isRedis = options.protocolName == "redis"
    requests = (0..<options.channels).map { i in
      let key = options.channels == 1 ? "bench" : "bench\(i)"
      switch (options.protocolName, options.command) {
      case ("redis", "publish"): return Array("PUBLISH \(key) 1\r\n".utf8)
      case ("redis", _): return Array("INCR \(key)\r\n".utf8)
      default: return Array("INCR \(key)\n".utf8)
      }
    }
  }

  /// Counts complete replies in `buffer[from...]`; returns (replies, bytes consumed).
  func countReplies(_ buffer: UnsafeRawBufferPointer) -> (Int, Int) {
    var replies = 0
    var consumed = 0
    var lineStart = 0
    for i in 0..<buffer.count where buffer[i] == 0x0A {
      let first = buffer[lineStart]
      if isRedis {
        replies += 1  // every Redis reply used here is one line (":n" or ":n" for PUBLISH)
      } else if first == UInt8(ascii: "O") || first == UInt8(ascii: "E") {
        replies += 1  // "OK" or "ERR": a status line ends a reply
      }
      lineStart = i + 1
      consumed = i + 1
    }
    return (replies, consumed)
  }
}

func connectUnix(_ path: String) -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    let bytes = Array(path.utf8)
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  let result = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  if result != 0 { fail("cannot connect to \(path): errno \(errno)") }
  return fd
}

/// One client's run: returns the latency of each window of requests, in microseconds.
func runClient(_ options: Options, _ wire: Wire, index: Int, count: Int) -> [UInt64] {
  let fd = connectUnix(options.socket)
  defer { close(fd) }
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  var filled = 0
  var done = 0
  var next = index
  var latencies: [UInt64] = []
  latencies.reserveCapacity(count / options.pipeline + 1)
  var out: [UInt8] = []
  while done < count {
    let batch = min(options.pipeline, count - done)
    out.removeAll(keepingCapacity: true)
    for _ in 0..<batch {
      out += wire.requests[next % wire.requests.count]
      next += 1
    }
    let started = DispatchTime.now().uptimeNanoseconds
    var sent = 0
    while sent < out.count {
      let n = out[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { fail("send failed: errno \(errno)") }
      sent += n
    }
    var got = 0
    while got < batch {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, $0.count - filled, 0) }
      if n <= 0 { fail("connection closed after \(done + got) replies") }
      filled += n
      let (replies, consumed) = buffer.withUnsafeBytes { wire.countReplies(UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
      got += replies
      if consumed > 0 {
        buffer.withUnsafeMutableBytes { raw in
          raw.baseAddress!.copyMemory(from: raw.baseAddress! + consumed, byteCount: filled - consumed)
        }
        filled -= consumed
      }
    }
    latencies.append((DispatchTime.now().uptimeNanoseconds - started) / 1000)
    done += batch
  }
  return latencies
}

final class Results: @unchecked Sendable {
  let lock = NSLock()
  var latencies: [UInt64] = []
}

let options = parseOptions()
let wire = Wire(options)
let results = Results()
let perClient = options.requests / options.clients
let started = DispatchTime.now().uptimeNanoseconds
let threads = (0..<options.clients).map { i in
  let thread = Thread {
    let latencies = runClient(options, wire, index: i, count: perClient)
    results.lock.withLock { results.latencies += latencies }
  }
  thread.stackSize = 1 << 20
  thread.start()
  return thread
}
while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
let total = perClient * options.clients
let sorted = results.latencies.sorted()
func percentile(_ p: Double) -> UInt64 { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
print(
  "{\"protocol\":\"\(options.protocolName)\",\"command\":\"\(options.command)\",\"clients\":\(options.clients),"
    + "\"pipeline\":\(options.pipeline),\"channels\":\(options.channels),\"requests\":\(total),"
    + "\"seconds\":\(String(format: "%.3f", seconds)),\"ops_per_sec\":\(Int(Double(total) / seconds)),"
    + "\"p50_us\":\(percentile(0.5)),\"p99_us\":\(percentile(0.99))}")
