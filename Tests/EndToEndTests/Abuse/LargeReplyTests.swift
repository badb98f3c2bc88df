import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Replies of many megabytes (`STATS year` over thousands of channels with history, `LIST` and
/// a `WATCH` snapshot of 10,000 channels) are produced as the client reads them: a fresh client
/// is answered meanwhile, a client that stops reading holds no more than its limit, and what
/// is read slowly comes out complete and exact, with no change lost to a watcher.
@Suite struct LargeReplyTests {
  /// Channels with history: each increased and cleared, so that none is kept and history holds
  /// them all. A year of each is 366 lines, about 16 KiB.
  static let historyChannels = 5000

  /// `INCR` then `CLEAR` of `h0000` … in pipelined batches, every reply checked.
  static func makeHistory(_ daemon: DaemonProcess) throws {
    let writer = try daemon.client()
    for batch in stride(from: 0, to: historyChannels, by: 1000) {
      let requests = (batch..<(batch + 1000)).map { "INCR \(Self.history($0)) \($0 + 1)\nCLEAR \(Self.history($0))\n" }
        .joined()
      let sending = sendInBackground(Array(requests.utf8), to: writer.fd)
      for i in 0..<2000 {
        guard try writer.readReply(timeout: 60).last == "OK" else {
          throw TestFailure("request \(batch * 2 + i) refused")
        }
      }
      sending.wait()
    }
  }

  static func history(_ i: Int) -> String { "h" + String(10_000 + i).dropFirst() }
  static func channel(_ i: Int) -> String { "c" + String(100_000 + i).dropFirst() }

  /// `SET c00000 1`, `SET c00001 2`, … for `count` channels, pipelined.
  static func makeChannels(_ daemon: DaemonProcess, _ count: Int) throws {
    let writer = try daemon.client()
    let requests = (0..<count).map { "SET \(Self.channel($0)) \($0 + 1)\n" }.joined()
    let sending = sendInBackground(Array(requests.utf8), to: writer.fd)
    for i in 0..<count {
      guard try writer.readReply(timeout: 60).last == "OK" else { throw TestFailure("SET \(i) refused") }
    }
    sending.wait()
  }

  @Test func aPingIsAnsweredWhileAStatsClientReadsNothingAndItHoldsNoMoreThanItsLimit() throws {
    // The smallest limit, so that the bound below is tight: 64 KiB unsent and a 64 KiB chunk.
    let daemon = try DaemonProcess(config: "[limits]\nmax_unsent_bytes = 65536\nsend_timeout_ms = 3600000\n")
    try Self.makeHistory(daemon)
    #expect(try daemon.client().request("PING") == ["OK pong"])
    // The peak from here on (writing 5 to clear_refs resets VmHWM to the RSS now).
    try "5".write(toFile: "/proc/\(daemon.pid)/clear_refs", atomically: false, encoding: .utf8)
    let before = try memoryKiB(daemon.pid, "VmRSS")
    let reader = try daemon.client()
    try reader.send("STATS year\n")
    // Another client's round trip while the reader has read nothing of a reply of about 80 MB.
    let fresh = try daemon.client()
    #expect(try fresh.request("PING") == ["OK pong"])
    let day = try fresh.request("STATS day h0001")
    #expect(
      day.count == 3 && day[0].hasPrefix("STATS h0001 period=day ") && day[1].hasPrefix("DAY h0001 ") && day[2] == "OK")
    #expect(day.dropLast().allSatisfy { $0.hasSuffix(" arrivals=2 clears=1 peak=2") }, "\(day)")
    // Built whole, the reply would have grown the daemon by its 80 MB in the turn of the
    // request, before the fresh client's turn; produced as it is read, the daemon holds the
    // reply's unsent 128 KiB at most (the rest is in the sockets' buffers).
    let peak = try memoryKiB(daemon.pid)
    print("abuse: STATS year of \(Self.historyChannels) channels, unread: RSS \(before) KiB before, peak \(peak) KiB")
    #expect(peak - before < 8 << 10, "peak \(peak) KiB against \(before) KiB before the request")
    // Then the reply is read to its end, complete and in order.
    var lines = BulkLines(fd: reader.fd)
    var channels = 0
    var days = 0
    var last = ""
    while let line = try lines.next() {
      if line == "OK" { break }
      let words = line.split(separator: " ", maxSplits: 2)
      if words[0] == "STATS" {
        #expect(days == 0 || days == 365, "a channel's DAY lines, then the next channel")
        #expect(String(words[1]) > last)
        last = String(words[1])
        channels += 1
        days = 0
      } else {
        #expect(words[0] == "DAY" && String(words[1]) == last)
        days += 1
      }
    }
    #expect(channels == Self.historyChannels)
    #expect(days == 365)
    #expect(last == Self.history(Self.historyChannels - 1))
    try expectHealthy(daemon, peakMiB: before / 1024 + 16, "STATS year of 5,000 channels read at last")
  }

  @Test func aListOfTenThousandChannelsReadSlowlyIsCompleteAndExact() throws {
    let daemon = try DaemonProcess()
    try Self.makeChannels(daemon, 10_000)
    let reader = try daemon.client()
    let other = try daemon.client()
    try reader.send("LIST\n")
    var lines: [String] = []
    // A hundred lines at a time, with another client's round trip between.
    while lines.last != "OK" {
      for _ in 0..<100 {
        guard let line = try reader.readLine() else { throw TestFailure("closed after \(lines.count) lines") }
        lines.append(line)
        if line == "OK" { break }
      }
      #expect(try other.request("PING") == ["OK pong"])
    }
    #expect(lines.count == 10_001)
    // Each line whole, the running total at its end as on every state line.
    for (i, line) in lines.dropLast().enumerated() {
      guard line.hasPrefix("STATE \(Self.channel(i)) count=\(i + 1) "), line.hasSuffix(" total=\(i + 1)") else {
        Issue.record("line \(i): \(line)")
        break
      }
    }
  }

  @Test func aWatchSnapshotOfTenThousandReadSlowlyLosesNoChangeMadeMeanwhile() throws {
    // No pulse windows: the held events are merged in the order of each channel's latest event
    // (PROTOCOL.md, "Slow readers"), and a window's end is an event. With windows, one that ends
    // while the merged events are still being sent (on a loaded machine the snapshot outlasts
    // its channels' windows, so the watcher has thousands to catch up on) puts its channel after
    // the writer's last change, and reading up to that change would stop short of it.
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 0\n[limits]\nmax_channels = 20000\n")
    try Self.makeChannels(daemon, 10_000)
    let watcher = try daemon.client()
    let writer = try daemon.client()
    try watcher.send("WATCH c* new*\n")
    // The watcher's view: each channel's last line, by name (count and seq).
    var view: [String: (count: String, seq: String)] = [:]
    // Every line the watcher got, by channel: what a failure shows of the channel it names.
    var got: [String: [String]] = [:]
    var snapshot = 0
    var batch = 0
    while true {
      guard let line = try watcher.readLine() else { throw TestFailure("closed inside the snapshot") }
      if line == "OK watching" { break }
      #expect(line.hasPrefix("STATE "), "no event inside the snapshot: \(line)")
      got[String(line.split(separator: " ")[1]), default: []].append("snapshot line \(snapshot): \(line)")
      if line.hasPrefix("STATE c") || line.hasPrefix("STATE new") {
        view[String(line.split(separator: " ")[1])] = (field(line, "count")!, field(line, "seq")!)
        snapshot += 1
      }
      // Every 500 lines, changes: one shown already, one not yet, a new channel, one forgotten.
      if snapshot % 500 == 0 && snapshot > 0 && snapshot / 500 > batch {
        batch = snapshot / 500
        for request in [
          "INCR \(Self.channel(batch * 400))", "INCR \(Self.channel(9_999 - batch * 3))",
          "SET new\(batch) \(batch)", "CLEAR \(Self.channel(batch * 499 + 1))",
        ] {
          let reply = try writer.request(request)
          got[String(request.split(separator: " ")[1]), default: []].append(
            "after line \(snapshot): \(request) -> \(reply)")
          #expect(reply.last == "OK", "\(request): \(reply)")
        }
      }
    }
    #expect(batch >= 10, "changes were made while the snapshot was read")
    // Then the events held meanwhile, and the writer's last change: its event comes after
    // them, the latest event of all (no window ends after it).
    #expect(try writer.request("INCR new0").last == "OK")
    while let line = try watcher.readLine() {
      #expect(line.hasPrefix("EVENT "), "\(line)")
      let name = String(line.split(separator: " ")[1])
      view[name] = (field(line, "count")!, field(line, "seq")!)
      got[name, default: []].append(line)
      if name == "new0" { break }
    }
    // Every channel it watches ends at its state now: listed ones as LIST shows them, the
    // cleared ones at 0.
    let listed = try daemon.client().request("LIST").dropLast()
      .filter { $0.hasPrefix("STATE c") || $0.hasPrefix("STATE new") }
    var now: [String: (count: String, seq: String)] = [:]
    for line in listed { now[String(line.split(separator: " ")[1])] = (field(line, "count")!, field(line, "seq")!) }
    for (name, state) in now {
      #expect(
        view[name]?.count == state.count && view[name]?.seq == state.seq,
        "\(name): \(String(describing: view[name])) against \(state); got: \(got[name] ?? [])")
    }
    let cleared = view.filter { now[$0.key] == nil }
    #expect(cleared.count == batch, "the channels cleared meanwhile")
    #expect(cleared.values.allSatisfy { $0.count == "0" })
  }
}

/// A socket's lines read in bulk (one buffer, scanned once): for replies of millions of lines,
/// which `RawClient` would copy for each line.
struct BulkLines {
  let fd: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(fd: Int32) { self.fd = fd }

  /// The next line without its LF; `nil` at end of file.
  mutating func next(timeout: Double = 60) throws -> String? {
    while true {
      if let lf = buffer[start...].firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[start..<lf], as: UTF8.self)
        start = lf + 1
        return line
      }
      buffer.removeFirst(start)
      start = 0
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { throw TestFailure("no line within \(timeout) s") }
      var chunk = [UInt8](repeating: 0, count: 1 << 18)
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n == 0 { return nil }
      guard n > 0 else { throw TestFailure("read failed: errno \(errno)") }
      buffer += chunk[..<n]
    }
  }
}
