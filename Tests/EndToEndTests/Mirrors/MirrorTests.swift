import Foundation
import TestSupport
import Testing

/// Mirrored channels against the real daemon, with a raw socket client playing the bridge:
/// one bridge at a time, only it puts owners' states here, a mirrored channel is an ordinary
/// channel to every client, and the bridge going away makes every mirror stale at once.
@Suite struct MirrorTests {
  static let ci = "MIRROR ci owner=server count=3 unseen=2 total=10 muted=0 dot=0 label=3 pulse=0 oseq=40"

  /// A client that said `BRIDGE host=laptop`.
  static func bridge(_ daemon: DaemonProcess) throws -> RawClient {
    let bridge = try daemon.client()
    #expect(try bridge.request("BRIDGE host=laptop") == ["OK"])
    return bridge
  }

  @Test func oneBridgeAtATimeAndOnlyItPutsOwnersStatesHere() throws {
    let daemon = try DaemonProcess()
    let other = try daemon.client()
    #expect(try other.request(Self.ci).first?.hasPrefix("ERR not-bridge ") == true)
    for line in ["STALE server 1", "FORWARDS", "DELIVERED laptop:1:1", "MIRROR ci forget", "BRIDGE status connected=1"]
    {
      #expect(try other.request(line).first?.hasPrefix("ERR not-bridge ") == true, "\(line)")
    }
    #expect(try other.request("DND on from=desk at=1").first?.hasPrefix("ERR not-bridge ") == true)
    #expect(try other.request("LIST") == ["OK"], "nothing changed")
    let bridge = try Self.bridge(daemon)
    #expect(try other.request("BRIDGE host=other").first?.hasPrefix("ERR bridge-taken ") == true)
    #expect(try bridge.request("BRIDGE host=laptop") == ["OK"], "the bridge may say it again")
    let reply = try bridge.request(Self.ci)
    #expect(
      reply == [
        "STATE ci count=3 label=3 dot=0 pulse=0 muted=0 seq=1 badge=count dnd=off unseen=2 total=10 owner=server "
          + "stale=0",
        "OK",
      ])
    // Once the bridge is gone another connection may be the bridge.
    bridge.close()
    #expect(waitUntil { (try? other.request("BRIDGE host=other")) == ["OK"] })
  }

  @Test func aMirroredChannelIsAnOrdinaryChannelToEveryClient() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH").last == "OK watching")
    let bridge = try Self.bridge(daemon)
    _ = try bridge.request(Self.ci)
    let shown = "count=3 label=3 dot=0 pulse=0 muted=0 seq=1 badge=count dnd=off unseen=2 total=10 owner=server stale=0"
    #expect(try watcher.readLine() == "EVENT ci " + shown)
    let client = try daemon.client()
    #expect(try client.request("LIST") == ["STATE ci " + shown, "OK"])
    #expect(try client.request("GET ci") == ["STATE ci " + shown, "OK"])
    // badgectl reads the fields, and stats says where the history is.
    #expect(try badgectl(["get", "ci"], socket: daemon.socket).stdout == "ci 3 2 new on server\n")
    let json = try badgectl(["list", "--format", "json"], socket: daemon.socket).stdout
    #expect(json.contains(#""owner":"server","stale":false,"since":0,"pending":false}"#), "\(json)")
    #expect(try client.request("STATS ci") == ["STATS ci owner=server", "OK"])
    #expect(try badgectl(["stats", "ci"], socket: daemon.socket).stdout == "ci: history is kept on server\n")
  }

  /// A bar shows where a mirrored channel is kept and when its owner is out of reach.
  @Test func aBarsTooltipAndClassesSayWhereAndWhetherStale() throws {
    let daemon = try DaemonProcess()
    let bridge = try Self.bridge(daemon)
    _ = try bridge.request(Self.ci)
    let watch = try WatchProcess(["ci", "--format", "waybar", "--no-motion"], socket: daemon.socket)
    defer { _ = watch.stop() }
    let fresh = try watch.readLine { $0.contains(#""tooltip":"ci: 3 unread, 2 new (on server)""#) }
    #expect(!fresh.contains("\"stale\""))
    // The owner went three and a half hours ago.
    _ = try bridge.request("STALE server 1 since=\(Int(Date().timeIntervalSince1970) - 12600)")
    let stale = try watch.readLine { $0.contains("(on server, offline 3 h)") }
    #expect(stale.contains(#""class":["unread","stale"]"#), "\(stale)")
  }

  /// The tooltip counts the minutes since the owner went out of reach, redrawn as each passes
  /// with nothing changing on the daemon.
  @Test func aStaleMirrorsTooltipIsRedrawnAsTheMinutesPass() throws {
    let daemon = try DaemonProcess()
    let bridge = try Self.bridge(daemon)
    _ = try bridge.request(Self.ci)
    // Gone 11 minutes and 57 seconds ago: the words turn to 12 minutes 3 seconds from now.
    let went = Int(Date().timeIntervalSince1970) - (12 * 60 - 3)
    _ = try bridge.request("STALE server 1 since=\(went)")
    let watch = try WatchProcess(["ci", "--format", "waybar", "--no-motion"], socket: daemon.socket)
    defer { _ = watch.stop() }
    let first = try watch.readLine()
    let shown = try #require(
      first.firstRange(of: "offline ").map { first[$0.upperBound...].prefix { $0.isNumber } }.flatMap { Int($0) },
      "\(first)")
    // On a slow machine the first line may come after the turn: the next one is a minute later.
    #expect(shown == 11 || shown == 12, "\(first)")
    let next = try watch.readLine(timeout: 70)
    #expect(next.contains(#""tooltip":"ci: 3 unread, 2 new (on server, offline \#(shown + 1) min)""#), "\(next)")
    #expect(Int(Date().timeIntervalSince1970) >= went + (shown + 1) * 60, "not before the minute")
  }

  @Test func theBridgeGoingAwayMakesEveryMirrorStaleAtOnce() throws {
    let daemon = try DaemonProcess()
    let bridge = try Self.bridge(daemon)
    _ = try bridge.request(Self.ci)
    _ = try bridge.request("MIRROR disk owner=nas count=1")
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH").last == "OK watching")
    let before = Int(Date().timeIntervalSince1970)
    bridge.close()
    var events: [String] = []
    for _ in 0..<2 { events.append(try #require(try watcher.readLine())) }
    let after = Int(Date().timeIntervalSince1970)
    #expect(events.map { $0.split(separator: " ")[1] } == ["ci", "disk"])
    for event in events {
      #expect(field(event, "stale") == "1")
      let since = try #require(field(event, "since").flatMap { Int($0) })
      #expect(since >= before && since <= after)
    }
    // A new bridge makes them fresh again, per owner.
    let again = try Self.bridge(daemon)
    let fresh = try again.request("STALE nas 0")
    #expect(fresh.count == 2 && field(fresh[0], "stale") == "0" && fresh[0].hasPrefix("STATE disk "))
    #expect(field(try watcher.readLine() ?? "", "stale") == "0")
    #expect(try again.request("STALE nas 0") == ["OK"], "already fresh: nothing changes")
    #expect(field(try again.request("GET ci")[0], "stale") == "1")
  }

  @Test func aLocalChannelHidesTheRemoteOneAndAMirrorIsConfiguredOnItsOwner() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    _ = try client.request("INCR mail")
    let bridge = try Self.bridge(daemon)
    let refused = try bridge.request("MIRROR mail owner=desktop count=5")
    #expect(refused.count == 1 && refused[0].hasPrefix("ERR local-channel "))
    #expect(try bridge.request("MIRROR mail forget").first?.hasPrefix("ERR local-channel ") == true)
    let mail = try client.request("GET mail")[0]
    #expect(field(mail, "count") == "1" && field(mail, "owner") == nil)
    _ = try bridge.request(Self.ci)
    #expect(
      try client.request("CONFIGURE ci style=dot") == ["ERR mirrored 'ci' is owned by server; configure it there"])
    #expect(field(try client.request("GET ci")[0], "dot") == "0")
    // Forgetting a mirror forgets the channel; forgetting one never mirrored changes nothing.
    #expect(try bridge.request("MIRROR ci forget").last == "OK")
    #expect(try client.request("LIST").count == 2, "only mail is left")
    #expect(try bridge.request("MIRROR never forget").last == "OK")
  }

  /// Every malformed request of the bridge's gets a clear error and changes nothing.
  @Test(arguments: [
    ("MIRROR ci", "ERR bad-arguments Missing owner= and count="),
    ("MIRROR ci owner=server", "ERR bad-arguments Missing owner= or count="),
    ("MIRROR ci count=3", "ERR bad-arguments Missing owner= or count="),
    ("MIRROR ci owner=server count=-1", "ERR bad-number Invalid count '-1'"),
    ("MIRROR ci owner=server count=2147483648", "ERR out-of-range count=2147483648 is over the largest count"),
    ("MIRROR ci owner=server count=3 unseen=4", "ERR bad-number unseen=4 is above count=3"),
    ("MIRROR ci owner=server count=3 total=2", "ERR bad-number total=2 is below count=3"),
    (
      "MIRROR ci owner=server count=3 total=9007199254740993",
      "ERR out-of-range total=9007199254740993 is over the largest total an owner reaches, 9007199254740992"
    ),
    ("MIRROR ci owner=server count=3 muted=2", "ERR bad-number Invalid muted '2'; expected 0 or 1"),
    ("MIRROR ci owner=server count=3 count=4", "ERR bad-arguments 'count=' is given twice"),
    ("MIRROR ci owner=server count=3 colour=red", "ERR bad-arguments Unexpected argument 'colour=red'"),
    ("MIRROR ci owner=a/b count=3", "ERR bad-name Invalid host 'a/b'"),
    ("MIRROR c/i owner=server count=3", "ERR bad-name Invalid channel name 'c/i'"),
    ("MIRROR ci owner=server count=3 pulse=3600001", "ERR bad-number pulse=3600001 is over the longest window"),
    ("MIRROR ci forget now", "ERR bad-arguments Unexpected argument 'now'"),
    ("STALE server", "ERR bad-arguments Missing host or 0|1"),
    ("STALE server 2", "ERR bad-number Invalid the staleness '2'; expected 0 or 1"),
    ("STALE server 1 since=soon", "ERR bad-number Invalid since 'soon'"),
    ("STALE server 1 at=5", "ERR bad-arguments Unexpected argument 'at=5'"),
    ("DELIVERED", "ERR bad-arguments Missing id"),
    ("DELIVERED a b", "ERR bad-arguments Unexpected argument 'b'"),
    ("DELIVERED a/b", "ERR bad-arguments Invalid id 'a/b'"),
    ("BRIDGE frob", "ERR bad-arguments Unexpected argument 'frob'"),
    ("BRIDGE status pending=1", "ERR bad-arguments Missing connected="),
    ("BRIDGE status connected=1 pending=x", "ERR bad-number Invalid pending 'x'"),
    ("DND on from=desk", "ERR bad-arguments Another machine's DND needs both from=<host> and at=<unix ms>"),
    ("DND toggle from=desk at=1", "ERR bad-arguments Unexpected argument 'from=desk'"),
    ("DND on 1h from=desk at=1 at=2", "ERR bad-arguments 'at=' is given twice"),
  ])
  func badInputIsRefusedAndChangesNothing(line: String, error: String) throws {
    let daemon = try DaemonProcess()
    let bridge = try Self.bridge(daemon)
    _ = try bridge.request(Self.ci)
    let before = try bridge.request("LIST") + (try bridge.request("DND")) + (try bridge.request("BRIDGE"))
    let reply = try bridge.request(line)
    #expect(reply.count == 1 && reply[0].hasPrefix(error), "\(line): \(reply)")
    #expect(try bridge.request("LIST") + (try bridge.request("DND")) + (try bridge.request("BRIDGE")) == before)
  }
}
