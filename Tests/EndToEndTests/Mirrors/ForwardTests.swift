import Foundation
import TestSupport
import Testing

/// Writes to mirrored channels against the real daemon: forwarded with ids of their own and
/// clears as watermarks, pushed to the bridge once saved, kept across a kill -9 until
/// `DELIVERED`, bounded, and the owner's state replacing the local view.
@Suite struct ForwardTests {
  /// The forwarded writes in a `FORWARDS` reply: `(id, line)`.
  static func forwards(_ bridge: RawClient) throws -> [(id: String, line: String)] {
    let reply = try bridge.request("FORWARDS")
    #expect(reply.last == "OK")
    return reply.dropLast().map { line in
      let words = line.split(separator: " ", maxSplits: 2)
      #expect(words[0] == "FORWARD")
      return (String(words[1]), String(words[2]))
    }
  }

  @Test func aWriteChangesTheViewAtOnceAndGoesToTheOwnerWithAnIdAndAWatermark() throws {
    let daemon = try DaemonProcess()
    let bridge = try MirrorTests.bridge(daemon)
    _ = try bridge.request(MirrorTests.ci)
    let client = try daemon.client()
    let incr = try client.request("INCR ci 2")
    #expect(field(incr[0], "count") == "5" && field(incr[0], "total") == "12" && field(incr[0], "pending") == "1")
    let cleared = try client.request("CLEAR ci")
    #expect(field(cleared[0], "count") == "0" && field(cleared[0], "pending") == "1")
    _ = try client.request("MUTE ci")
    _ = try client.request("CLEAR ci")  // at 0 already: nothing to forward
    let waiting = try Self.forwards(bridge)
    let ids = waiting.map(\.id)
    #expect(ids.count == 3)
    let prefix = String(ids[0].dropLast())  // `<host>:<epoch>:`
    #expect(ids == [prefix + "1", prefix + "2", prefix + "3"])
    #expect(prefix.split(separator: ":").count == 2, "\(prefix)")
    #expect(
      waiting.map(\.line) == [
        "INCR ci 2 id=\(ids[0])", "CLEAR ci upto=12 id=\(ids[1])", "MUTE ci id=\(ids[2])",
      ])
    // From now on each write is pushed once saved; an explicit upto goes as given.
    _ = try client.request("INCR ci")
    _ = try client.request("SEEN ci upto=13")
    #expect(try bridge.readLine() == "FORWARD \(prefix)4 INCR ci 1 id=\(prefix)4")
    #expect(try bridge.readLine() == "FORWARD \(prefix)5 SEEN ci upto=13 id=\(prefix)5")
    // The owner's state replaces the view; pending goes with the last delivery.
    let owners = try bridge.request("MIRROR ci owner=server count=1 total=13 muted=1 oseq=45")
    #expect(owners[0].hasSuffix(" total=13 owner=server stale=0 pending=1"))
    for n in 1...4 { #expect(try bridge.request("DELIVERED \(prefix)\(n)") == ["OK"]) }
    #expect(field(try client.request("GET ci")[0], "pending") == "1")
    #expect(try bridge.request("DELIVERED \(prefix)5") == ["OK"])
    #expect(try client.request("GET ci")[0].hasSuffix(" total=13 owner=server stale=0"))
    #expect(try bridge.request("DELIVERED \(prefix)5") == ["OK not-pending"])
    #expect(try Self.forwards(bridge).isEmpty)
  }

  /// kill -9 after a forwarded write's reply: it is still waiting after the restart, under the
  /// same id, with the channel's last known state, stale; after `DELIVERED` and another kill it
  /// is not; and ids go on from where they were.
  @Test func aForwardedWriteSurvivesAKillUntilItIsDelivered() throws {
    let folder = try TemporaryFolder()
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder)
    var bridge = try MirrorTests.bridge(daemon!)
    _ = try bridge.request(MirrorTests.ci)
    let client = try daemon!.client()
    #expect(try client.request("INCR ci").last == "OK")
    #expect(try client.request("CLEAR ci").last == "OK")
    let first = try Self.forwards(bridge)
    #expect(first.count == 2)
    daemon!.crash()
    daemon = try DaemonProcess(folder: folder)
    let reader = try daemon!.client()
    let shown = try reader.request("GET ci")[0]
    #expect(field(shown, "count") == "0" && field(shown, "total") == "11")
    #expect(field(shown, "stale") == "1" && field(shown, "pending") == "1" && field(shown, "since") != nil)
    bridge = try MirrorTests.bridge(daemon!)
    #expect(try Self.forwards(bridge).map(\.id) == first.map(\.id))
    #expect(try Self.forwards(bridge).map(\.line) == first.map(\.line))
    #expect(try bridge.request("DELIVERED \(first[0].id)") == ["OK"])
    daemon!.crash()
    daemon = try DaemonProcess(folder: folder)
    bridge = try MirrorTests.bridge(daemon!)
    #expect(try Self.forwards(bridge).map(\.id) == [first[1].id])
    #expect(try daemon!.client().request("INCR ci").last == "OK")
    let prefix = String(first[0].id.dropLast())
    #expect(try bridge.readLine() == "FORWARD \(prefix)3 INCR ci 1 id=\(prefix)3", "the counter goes on")
    // A clean stop and start (a compaction: the snapshot) keeps them too.
    #expect(daemon!.stop() == 0)
    daemon = try DaemonProcess(folder: folder)
    bridge = try MirrorTests.bridge(daemon!)
    #expect(try Self.forwards(bridge).map(\.id) == [first[1].id, prefix + "3"])
  }

  /// 10,000 writes wait at most; the next is refused with `full` and changes nothing, and a
  /// delivery makes room again.
  @Test func theOutboxIsBoundedAndPastItAWriteIsRefused() throws {
    let daemon = try DaemonProcess()
    let bridge = try MirrorTests.bridge(daemon)
    _ = try bridge.request(MirrorTests.ci)
    let client = try daemon.client()
    for _ in 0..<5 {
      try client.send(String(repeating: "INCR ci\n", count: 2000))
      for _ in 0..<2000 { #expect(try client.readReply().last == "OK") }
    }
    let before = try client.request("GET ci")
    #expect(field(before[0], "count") == "10003")
    let refused = try client.request("INCR ci")
    #expect(refused.count == 1 && refused[0].hasPrefix("ERR full "), "\(refused)")
    #expect(try client.request("GET ci").map(withoutPulse) == before.map(withoutPulse))
    let waiting = try Self.forwards(bridge)
    #expect(waiting.count == 10_000)
    #expect(try bridge.request("DELIVERED \(waiting[0].id)") == ["OK"])
    #expect(try client.request("INCR ci").last == "OK")
    #expect(try bridge.readLine()?.hasSuffix(" INCR ci 1 id=\(String(waiting[0].id.dropLast()))10001") == true)
  }

  /// An owner that stays away fills only its own room (10,000 writes): the next write to its
  /// channel is refused naming it, a write to another owner's channel still goes, and
  /// `BRIDGE` and `badgectl mqtt` say whose room is full.
  @Test func oneAbsentOwnerFillsOnlyItsOwnRoom() throws {
    let daemon = try DaemonProcess()
    let bridge = try MirrorTests.bridge(daemon)
    _ = try bridge.request(MirrorTests.ci)
    _ = try bridge.request("MIRROR disk owner=nas count=0 total=4")
    let client = try daemon.client()
    for _ in 0..<5 {
      try client.send(String(repeating: "INCR ci\n", count: 2000))
      for _ in 0..<2000 { #expect(try client.readReply().last == "OK") }
    }
    let refused = try client.request("INCR ci")
    #expect(
      refused == [
        "ERR full INCR of 'ci' would be forwarded to server, and 10000 writes wait for server already (the "
          + "outbox's room for one owner); nothing changed"
      ])
    let other = try client.request("INCR disk")
    #expect(other.last == "OK" && field(other[0], "pending") == "1", "\(other)")
    let report = try client.request("BRIDGE")
    #expect(report[0].hasSuffix(" forwards=10001 full=server"), "\(report)")
    let said = try badgectl(["mqtt"], socket: daemon.socket).stdout
    #expect(
      said.contains("no room for more writes to server's channels (the outbox's room for it is full)\n"), "\(said)")
    let waiting = try Self.forwards(bridge)
    #expect(try bridge.request("DELIVERED \(waiting[0].id)") == ["OK"])
    #expect(try client.request("INCR ci").last == "OK")
  }

  @Test func clearAllForwardsEachMirrorItClearsAsAWatermark() throws {
    let daemon = try DaemonProcess()
    let bridge = try MirrorTests.bridge(daemon)
    _ = try bridge.request(MirrorTests.ci)
    _ = try bridge.request("MIRROR disk owner=nas count=0 total=4")
    let client = try daemon.client()
    _ = try client.request("INCR mail")
    let cleared = try client.request("CLEAR *")
    #expect(
      cleared.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["STATE ci", "STATE mail", "OK"])
    let waiting = try Self.forwards(bridge)
    #expect(waiting.map(\.line) == ["CLEAR ci upto=10 id=\(waiting[0].id)"], "disk was at 0; mail is local")
  }

  @Test func pulseOfAMirrorIsForwardedWithoutAnId() throws {
    let daemon = try DaemonProcess()
    let bridge = try MirrorTests.bridge(daemon)
    _ = try bridge.request(MirrorTests.ci)
    let reply = try daemon.client().request("PULSE ci 5000")
    #expect(field(reply[0], "pending") == "1" && Int(field(reply[0], "pulse") ?? "") ?? 0 > 4000)
    let waiting = try Self.forwards(bridge)
    #expect(waiting.count == 1 && waiting[0].line == "PULSE ci 5000")
  }
}
