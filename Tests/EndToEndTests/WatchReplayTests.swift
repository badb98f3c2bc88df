import Foundation
import Testing

/// `WATCH since=<seq>` against the built badged: a new connection gets exactly the changes it
/// missed, in order, then live events; a restart keeps none of them.
@Suite struct WatchReplayTests {
  @Test func aNewConnectionGetsTheHundredChangesItMissedThenLiveEvents() throws {
    // Windows long enough that every replayed change still pulses, however slow the machine.
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 600000\n")
    let writer = try daemon.client()
    _ = try writer.request("SET mail 5")
    let last = try #require(field(try writer.request("INCR chat")[0], "seq"))
    let since = try #require(UInt64(last))
    /// A state line without its pulse field, which a replay gives as it is now.
    func withoutPulse(_ line: String) -> String {
      line.split(separator: " ").filter { !$0.hasPrefix("pulse=") }.joined(separator: " ")
    }
    var expected: [String] = []
    for i in 0..<100 {
      let reply = try writer.request(i % 3 == 0 ? "INCR mail" : "INCR chat 2")
      expected.append(withoutPulse(reply[0]))
    }
    let watcher = try daemon.client()
    let lines = try watcher.request("WATCH since=\(since)")
    #expect(lines.count == 102)
    #expect(lines.first == "STATE * dnd=0 left=0")
    #expect(lines.last == "OK watching since=\(since)")
    let replayed = lines.dropFirst().dropLast()
    #expect(replayed.map { field($0, "seq")! } == (since + 1...since + 100).map { String($0) })
    // Each line as its change left the channel; the pulse field is the time left now.
    #expect(replayed.map(withoutPulse) == expected)
    #expect(replayed.allSatisfy { (Int(field($0, "pulse")!) ?? 0) > 0 })
    #expect(replayed.last.map { field($0, "count") } == "39")
    _ = try writer.request("INCR mail")
    let event = try #require(try watcher.readLine())
    #expect(event.hasPrefix("EVENT mail count=40 label=40 "))
    #expect(field(event, "seq") == String(since + 101))
  }

  @Test func afterARestartAnOlderNumberGetsTheSnapshotAndReset() throws {
    let daemon = try DaemonProcess()
    let writer = try daemon.client()
    for _ in 0..<3 { _ = try writer.request("INCR mail") }
    #expect(daemon.stop() == 0)
    let restarted = try DaemonProcess(folder: daemon.folder)
    defer { restarted.stop() }
    let watcher = try restarted.client()
    let older = try watcher.request("WATCH since=2")
    #expect(
      older.map { String($0.split(separator: " ").prefix(3).joined(separator: " ")) } == [
        "STATE * dnd=0", "STATE mail count=3", "OK watching reset",
      ])
    // The number it stopped at is still exact: nothing after it to replay.
    #expect(try restarted.client().request("WATCH since=3") == ["STATE * dnd=0 left=0", "OK watching since=3"])
  }
}
