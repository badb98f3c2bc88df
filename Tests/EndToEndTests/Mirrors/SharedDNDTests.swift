import Foundation
import TestSupport
import Testing

/// Do-not-disturb shared between machines against the real daemon: the newest change wins
/// by wall-clock time (then host name), whatever order changes arrive in, across a restart
/// too; every change says when it was made and another machine's where; a change made here
/// is weighed under the bridge's name; `badgectl mqtt` shows the bridge.
@Suite struct SharedDNDTests {
  static let future: UInt64 = 4_102_444_800_000  // 2100-01-01

  @Test func theNewestChangeWinsAndSaysWhereItCameFrom() throws {
    let folder = try TemporaryFolder()
    var daemon: DaemonProcess? = try DaemonProcess(folder: folder)
    let client = try daemon!.client()
    let since = wallMilliseconds()
    let on = try client.request("DND on")
    let at = try dndStamp(on.first, since: since)
    #expect(on == ["STATE * dnd=1 left=0 at=\(at)", "OK"], "a change made here says when, not where")
    var bridge = try MirrorTests.bridge(daemon!)
    let watcher = try daemon!.client()
    #expect(try watcher.request("WATCH").first == "STATE * dnd=1 left=0 at=\(at)")
    // Older than the change made here: refused, nothing changes.
    #expect(try bridge.request("DND off from=desk at=1764620000000") == ["STATE * dnd=1 left=0 at=\(at)", "OK older"])
    #expect(
      try bridge.request("DND off from=desk at=\(Self.future)") == [
        "STATE * dnd=0 left=0 from=desk at=\(Self.future)", "OK",
      ])
    #expect(try watcher.readLine() == "EVENT * dnd=0 left=0 from=desk at=\(Self.future)")
    // The same time from a host that sorts later wins; from one that sorts earlier, not.
    #expect(try bridge.request("DND on from=attic at=\(Self.future)").last == "OK older")
    #expect(try bridge.request("DND on from=den at=\(Self.future)").last == "OK older")
    #expect(try bridge.request("DND on 1h from=study at=\(Self.future)").last == "OK")
    daemon!.crash()
    daemon = try DaemonProcess(folder: folder)
    bridge = try MirrorTests.bridge(daemon!)
    let kept = try bridge.request("DND")
    #expect(kept[0].hasPrefix("STATE * dnd=1 left=") && kept[0].hasSuffix(" from=study at=\(Self.future)"))
    #expect(try bridge.request("DND off from=desk at=\(Self.future)").last == "OK older", "the stamp was kept")
  }

  /// Another machine's newer change that leaves do-not-disturb as it is here is still taken:
  /// its stamp is what counts, so an older change that comes after it is refused. A change made
  /// here after it is stamped one past it, even by a clock that is behind.
  @Test func aNewerChangeThatChangesNothingIsStillTaken() throws {
    let daemon = try DaemonProcess()
    #expect(try daemon.client().request("DND on").last == "OK")
    let bridge = try MirrorTests.bridge(daemon)
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH nothing").last == "OK watching")
    #expect(
      try bridge.request("DND on from=desk at=\(Self.future)") == [
        "STATE * dnd=1 left=0 from=desk at=\(Self.future)", "OK",
      ])
    #expect(try watcher.readLine() == "EVENT * dnd=1 left=0 from=desk at=\(Self.future)")
    #expect(try bridge.request("DND off from=attic at=\(Self.future - 1)").last == "OK older")
    #expect(try daemon.client().request("DND off") == ["STATE * dnd=0 left=0 at=\(Self.future + 1)", "OK"])
  }

  /// A change made here is weighed under the name the bridge gave this machine, whatever the
  /// host name: a tie at the same millisecond breaks as the bridge, and so every other
  /// machine, breaks it.
  @Test func aTieWithAChangeMadeHereBreaksUnderTheBridgesName() throws {
    for (name, outcome) in [("aa", "OK"), ("zz", "OK older")] {
      let daemon = try DaemonProcess()
      let since = wallMilliseconds()
      let at = try dndStamp(try daemon.client().request("DND on").first, since: since)
      let bridge = try daemon.client()
      #expect(try bridge.request("BRIDGE host=\(name)") == ["OK"])
      let reply = try bridge.request("DND off from=mm at=\(at)")
      #expect(reply.last == outcome, "the bridge of '\(name)': \(reply)")
      #expect(field(reply[0], "dnd") == (outcome == "OK" ? "0" : "1"))
    }
  }

  @Test func mqttShowsWhatTheBridgeReported() throws {
    let daemon = try DaemonProcess()
    #expect(
      try badgectl(["mqtt"], socket: daemon.socket).stdout
        == "bridge: not running (no badged-mqtt is connected to the daemon)\nwaiting for their owners: 0 writes\n")
    let bridge = try MirrorTests.bridge(daemon)
    #expect(
      try bridge.request("BRIDGE status connected=0 broker=mqtts://hub:8883 pending=2 error=TLS: unknown CA")
        == ["OK"])
    let shown = try badgectl(["mqtt"], socket: daemon.socket)
    #expect(shown.status == 0)
    #expect(
      shown.stdout
        == "bridge: host laptop, not connected (broker mqtts://hub:8883)\n"
        + "waiting for their owners: 0 writes here, 2 in the bridge\nlast error: TLS: unknown CA\n")
  }
}
