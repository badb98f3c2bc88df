import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's standard error a FIFO that is open and not read (a log reader that stalled),
/// while the daemon logs every request (debug) and hooks print thousands of lines: the
/// daemon goes on serving, and once the FIFO is read again the log says how many lines it
/// dropped. Before, the daemon waited in `write(2)` on its own log line, and the hooks, which
/// shared its standard error, filled the FIFO first: no client was answered until the reader
/// came back.
@Suite struct LogStallTests {
  @Test func aLogNobodyReadsNeverStopsTheDaemonAndTheDropsAreCountedOnceItIsRead() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let fifo = folder.file("stderr")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // open, not read for now
    defer { close(reader) }
    let socket = folder.file("badged.sock")
    let config = try folder.write(
      "badged.conf",
      """
      [daemon]
      sync = never
      hook_interval_ms = 0
      on_increase = sh -c 'yes hook-output | head -n 1000'
      """)
    let daemon = try Child(
      [
        Binaries.badged.path, "--socket", socket, "--state-dir", folder.file("state"), "--config", config,
        "--log-level", "debug",
      ],
      environment: Child.environment(), stderr: .file(fifo))
    defer {
      daemon.signal(SIGTERM)
      _ = daemon.wait()
    }
    #expect(waitUntil { RawClient.canConnect(socket) })

    // 500 requests over 50 channels, each logged (debug), each channel's hook printing 1,000
    // lines (32 of each run relayed to the log): far more than the FIFO's 64 KiB.
    let client = try RawClient(path: socket)
    for n in 0..<500 { _ = try client.request("INCR c\(n % 50)") }
    var unread: CInt = 0
    #expect(ioctl(reader, UInt(FIONREAD), &unread) == 0)
    #expect(unread > 60_000, "the FIFO is full: \(unread) bytes unread")
    #expect(try RawClient(path: socket).request("PING") == ["OK pong"], "a fresh client is answered")

    // The reader comes back: the first thing the daemon writes once there is room is the
    // count, without waiting for another line.
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    func drain() {
      while case let n = read(reader, &buffer, buffer.count), n > 0 { data += buffer[..<n] }
    }
    #expect(
      waitUntil {
        drain()
        return String(decoding: data, as: UTF8.self).contains(" dropped while the log")
      })
    daemon.signal(SIGTERM)
    #expect(daemon.wait() == 0)
    drain()

    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    #expect(data.last == 0x0A)
    for line in lines where !(line.count > 3 && line.hasPrefix("<") && line.dropFirst(2).hasPrefix(">")) {
      Issue.record("not a whole log line: '\(line.prefix(200))'")
    }
    let counts = lines.filter { $0.hasSuffix(" log lines dropped while the log was not being read.") }
    #expect(!counts.isEmpty && counts.allSatisfy { $0.hasPrefix("<4>") }, "\(counts)")
    // The hooks' output reached the log only relayed, each run's first 32 lines and a count.
    let hookLines = lines.filter { $0.contains("hook-output") }
    #expect(hookLines.allSatisfy { $0.hasPrefix("<6>Hook on_increase of 'c") && $0.hasSuffix("): hook-output") })
    #expect(lines.contains("<6>Shutting down."))
  }
}
