import Foundation
import Testing

/// Watchers that never read while changes pour in: memory stays bounded (events merge per
/// channel), writers are served at full count, and the last event a watcher gets for each
/// channel is its final state.
@Suite struct StuckWatcherTests {
  static let channels = 1000
  static let changes = 200_000

  /// Makes `changes` increments over `channels` channels, pipelined 1000 at a time, checking
  /// every reply; then `INCR sentinel`, which every watcher sees last.
  static func pour(_ daemon: DaemonProcess) throws {
    let writer = try daemon.client()
    let batch = (0..<1000).map { "INCR c\($0 % channels)\n" }.joined()
    for round in 0..<(changes / 1000) {
      let sending = sendInBackground(Array(batch.utf8), to: writer.fd)
      for i in 0..<1000 {
        let reply = try writer.readReply(timeout: 60)
        guard reply.last == "OK", field(reply[0], "count") == String(round * (1000 / channels) + i / channels + 1)
        else {
          throw TestFailure("round \(round), reply \(i): \(reply)")
        }
      }
      sending.wait()
    }
    #expect(try writer.request("INCR sentinel").last == "OK")
  }

  /// Every channel's count through `LIST`: each was incremented `changes / channels` times.
  static func expectExactCounts(_ daemon: DaemonProcess) throws {
    let listed = try daemon.client().request("LIST").dropLast()
    #expect(listed.count == channels + 1)
    let counts = Set(listed.filter { $0.hasPrefix("STATE c") }.map { field($0, "count") ?? "" })
    #expect(counts == [String(changes / channels)])
  }

  /// Reads the watcher's backlog up to the sentinel's event: the last event of each channel
  /// must be its final count.
  static func expectFinalStates(_ watcher: RawClient) throws {
    var last: [String: String] = [:]
    while let line = try watcher.readLine(timeout: 30) {
      guard line.hasPrefix("EVENT ") else { continue }
      let name = String(line.split(separator: " ")[1])
      last[name] = field(line, "count")
      if name == "sentinel" { break }
    }
    #expect(last.count == channels + 1, "every channel's event arrived")
    #expect(Set(last.filter { $0.key != "sentinel" }.values) == [String(changes / channels)])
  }

  @Test func oneWatcherThatNeverReads() throws {
    let daemon = try DaemonProcess(config: "[limits]\nsend_timeout_ms = 3600000\n")
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH").last == "OK watching")
    try Self.pour(daemon)
    try Self.expectExactCounts(daemon)
    try expectHealthy(daemon, peakMiB: 48, "1 stuck watcher, 200,000 changes")
    try Self.expectFinalStates(watcher)
  }

  @Test func aThousandWatchersThatNeverRead() throws {
    let daemon = try DaemonProcess(config: "[limits]\nsend_timeout_ms = 3600000\n")
    let watchers = try (0..<1000).map { _ in try daemon.client() }
    for watcher in watchers { #expect(try watcher.request("WATCH c* sentinel").last == "OK watching") }
    try Self.pour(daemon)
    try Self.expectExactCounts(daemon)
    try expectHealthy(daemon, peakMiB: 96, "1,000 stuck watchers, 200,000 changes")
    try Self.expectFinalStates(watchers[0])
    try Self.expectFinalStates(watchers[999])
  }

  @Test func aWatcherStuckPastTheSendTimeoutIsDisconnectedWithAReason() throws {
    let daemon = try DaemonProcess(config: "[limits]\nsend_timeout_ms = 2000\n")
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH").last == "OK watching")
    // Events of 5,000 channels: more than the socket holds even merged, so output waits.
    let writer = try daemon.client()
    let requests = (0..<20_000).map { "INCR c\($0 % 5000)\n" }.joined()
    let sending = sendInBackground(Array(requests.utf8), to: writer.fd)
    for n in 0..<20_000 {
      let reply = try writer.readReply()
      guard reply.last == "OK", reply[0].hasPrefix("STATE c\(n % 5000) count=\(n / 5000 + 1) ") else {
        throw TestFailure("reply \(n): \(reply)")
      }
    }
    sending.wait()
    #expect(waitUntil(timeout: 20) { daemon.log.contains("disconnecting it") }, "\(daemon.log)")
    #expect(daemon.log.contains("([limits] send_timeout_ms)"))
    // What was already in the socket still arrives; then the connection ends.
    while try watcher.readLine(timeout: 20) != nil {}
    #expect(try writer.request("GET c4999")[0].hasPrefix("STATE c4999 count=4 "))
    try expectHealthy(daemon, peakMiB: 48, "a watcher stuck past send_timeout_ms")
  }
}
