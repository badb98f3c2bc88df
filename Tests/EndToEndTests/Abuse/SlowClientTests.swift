import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Clients that hold the daemon's resources by being slow: half-sent lines (slowloris), too
/// many watch patterns, too many channels.
@Suite struct SlowClientTests {
  @Test func fiveHundredHalfFinishedLinesAreTimedOut() throws {
    let daemon = try DaemonProcess(config: "[limits]\nline_timeout_ms = 1000\n")
    let idle = try daemon.client()  // connected, between lines: never timed out
    #expect(try idle.request("PING") == ["OK pong"])
    let good = try daemon.client()
    let slow = try (0..<500).map { _ in try daemon.client() }
    for client in slow { try client.send("INCR slow") }
    let discarding = try daemon.client()
    try discarding.send(String(repeating: "a", count: 5000))  // an over-long line never ended
    for n in 1...3 { #expect(try good.request("INCR good")[0].hasPrefix("STATE good count=\(n) ")) }
    // A line finished within the limit is served, however slowly it came.
    try good.send("INC")
    usleep(300_000)
    #expect(try good.request("R good")[0].hasPrefix("STATE good count=4 "))

    #expect(try discarding.readLine()?.hasPrefix("ERR line-too-long ") == true)
    for client in slow + [discarding] {
      let line = try client.readLine(timeout: 20)
      #expect(
        line?.hasPrefix("ERR timeout A line was begun and not finished within 1000 ms") == true, "\(line ?? "closed")")
      #expect(try client.readLine() == nil, "closed after the error")
    }
    #expect(try idle.request("PING") == ["OK pong"], "an idle connection stays")
    #expect(try count("slow", daemon) == 0)
    #expect(try count("good", daemon) == 4)
    try expectHealthy(daemon, peakMiB: 48, "500 half-finished lines")
  }

  @Test func watchPatternsPerConnectionAreBounded() throws {
    let daemon = try DaemonProcess(config: "[limits]\nmax_watch_patterns = 3\n")
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH a b").last == "OK watching")
    let refused = try watcher.request("WATCH c d")
    #expect(refused.count == 1 && refused[0].hasPrefix("ERR too-many-patterns "), "\(refused)")
    #expect(try watcher.request("WATCH a c").last == "OK watching", "a pattern already watched does not count again")
    #expect(try watcher.request("WATCH e").first?.hasPrefix("ERR too-many-patterns ") == true)
    // What it watches is what it had: c changes reach it, e changes do not.
    let writer = try daemon.client()
    _ = try writer.request("INCR e")
    _ = try writer.request("INCR c")
    #expect(try watcher.readLine()?.hasPrefix("EVENT c count=1 ") == true)
    #expect(try watcher.request("WATCH").last == "OK watching", "every channel is one subscription")
    let other = try daemon.client()
    #expect(
      try other.request("WATCH a b c d").first?.hasPrefix("ERR too-many-patterns ") == true,
      "one request past the limit")
  }

  @Test func channelsPastTheLimitAreRefusedUntilOneIsCleared() throws {
    let daemon = try DaemonProcess(config: "[limits]\nmax_channels = 3\n")
    let client = try daemon.client()
    for name in ["a", "b", "c"] { #expect(try client.request("INCR \(name)").last == "OK") }
    let refused = try client.request("INCR d")
    #expect(refused.count == 1 && refused[0].hasPrefix("ERR full "), "\(refused)")
    #expect(try client.request("MUTE d").first?.hasPrefix("ERR full ") == true, "a setting makes a channel too")
    #expect(try client.request("INCR a").last == "OK", "kept channels still change")
    #expect(
      try client.request("GET d") == [
        "STATE d count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK",
      ])
    _ = try client.request("CLEAR b")
    #expect(try client.request("INCR d").last == "OK", "a cleared channel makes room")
    #expect(try client.request("LIST").count == 4)
  }
}
