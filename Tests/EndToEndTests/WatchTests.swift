import Foundation
import Testing

/// Subscriptions: the snapshot, the pushed events, pulse ends, merging for slow readers.
@Suite struct WatchTests {
  @Test func watchAnswersWithTheSnapshotThenPushesEvents() throws {
    let daemon = try DaemonProcess()
    let writer = try daemon.client()
    _ = try writer.request("SET mail 3")
    _ = try writer.request("SET app:one 1")
    _ = try writer.request("SET other 1")
    let watcher = try daemon.client()
    let snapshot = try watcher.request("WATCH mail app:* idle")
    #expect(
      snapshot.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        == ["STATE * dnd=0", "STATE app:one count=1", "STATE idle count=0", "STATE mail count=3", "OK watching"])
    _ = try writer.request("INCR other")  // not watched
    _ = try writer.request("INCR app:two")
    let event = try #require(try watcher.readLine())
    #expect(event.hasPrefix("EVENT app:two count=1 label=1 dot=0 pulse="))
    #expect(field(event, "seq") == "5")
    _ = try writer.request("CLEAR mail")
    #expect(try watcher.readLine()?.hasPrefix("EVENT mail count=0 label= ") == true)
  }

  @Test func watchWithoutPatternsFollowsEveryChannel() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH") == ["STATE * dnd=0 left=0", "OK watching"])
    let writer = try daemon.client()
    for name in ["a", "b.c", "d:e"] { _ = try writer.request("INCR \(name)") }
    for name in ["a", "b.c", "d:e"] { #expect(try watcher.readLine()?.hasPrefix("EVENT \(name) count=1 ") == true) }
  }

  @Test func aWatchingConnectionStillTakesCommands() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH mail")
    try watcher.send("INCR mail\n")
    // The reply and the event both arrive; the reply is complete and in order, and the event,
    // sent once the change is saved, comes after the turn's replies.
    var lines: [String] = []
    for _ in 0..<3 { lines.append(try #require(try watcher.readLine())) }
    #expect(lines[0].hasPrefix("STATE mail count=1 "))
    #expect(lines[1] == "OK")
    #expect(lines[2].hasPrefix("EVENT mail count=1 "))
    #expect(try watcher.request("UNWATCH") == ["OK"])
    _ = try daemon.client().request("INCR mail")
    // A round trip: an event of that change would have been queued before the pong.
    #expect(try watcher.request("PING") == ["OK pong"])
  }

  @Test func theEndOfAPulseWindowIsPushed() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 300\n")
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH mail")
    let writer = try daemon.client()
    let reply = try writer.request("INCR mail")[0]
    #expect(Int(field(reply, "pulse") ?? "") ?? 0 > 250)
    let started = try #require(try watcher.readLine())
    #expect(field(started, "pulse") != "0")
    let ended = try #require(try watcher.readLine(timeout: 3))
    #expect(field(ended, "pulse") == "0")
    #expect(field(ended, "count") == "1")
    #expect(field(ended, "seq") == field(started, "seq"), "the end of a window is not a change")
    #expect(try watcher.request("PING") == ["OK pong"], "nothing more once the window ended")
  }

  @Test func anIncreaseRestartsThePulseWindowAndMutedChannelsNeverPulse() throws {
    let daemon = try DaemonProcess(config: "[daemon]\npulse_ms = 400\n[channel quiet]\nmuted = yes\n")
    let client = try daemon.client()
    _ = try client.request("INCR mail")
    usleep(250_000)
    let restarted = Int(try field(client.request("INCR mail")[0], "pulse") ?? "") ?? 0
    #expect(restarted > 300)
    #expect(try field(client.request("INCR quiet")[0], "pulse") == "0")
  }

  @Test func aSlowWatcherGetsTheLatestStateOfEveryChannelAndSlowsNobody() throws {
    let daemon = try DaemonProcess()
    let slow = try daemon.client()
    _ = try slow.request("WATCH")
    // The slow watcher now reads nothing while a writer makes many changes.
    let writer = try daemon.client()
    let total = 20_000
    for round in 0..<20 {
      var batch = ""
      for i in 0..<1000 { batch += "INCR ch\((round * 1000 + i) % 7)\n" }
      try writer.send(batch)
      for _ in 0..<1000 { _ = try writer.readReply() }
    }
    _ = try writer.request("SET ch0 42")
    // Another client is still served at once.
    #expect(try daemon.client().request("PING") == ["OK pong"])
    // Drain the slow watcher: the last event of every channel is its final state.
    var last: [String: String] = [:]
    var lastSeq: [String: Int] = [:]
    var events = 0
    for line in try slow.drain() where line.hasPrefix("EVENT ") {
      events += 1
      let channel = String(line.split(separator: " ")[1])
      last[channel] = field(line, "count")
      let seq = Int(field(line, "seq") ?? "") ?? -1
      #expect(seq > lastSeq[channel, default: 0], "seq never goes backwards for a channel")
      lastSeq[channel] = seq
    }
    #expect(last["ch0"] == "42")
    for i in 1..<7 { #expect(last["ch\(i)"] == String(total / 7 + (i < total % 7 ? 1 : 0))) }
    // 20,001 events (about 1.2 MB) cannot all wait in the socket's buffer and the 8 KiB of
    // output before merging starts: some were merged into later ones.
    #expect(events < total + 1, "\(events) events: nothing was merged")
    #expect(events >= 7)
  }
}
