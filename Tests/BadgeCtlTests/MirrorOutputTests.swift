import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeCtl

/// What badgectl makes of mirrored channels and of the bridge: the fields of their state
/// lines, their plain and JSON forms, where their history is, and `badgectl mqtt`'s lines.
@Suite struct MirrorOutputTests {
  static let line =
    "STATE ci count=4 label=4 dot=0 pulse=0 muted=0 seq=9 badge=count dnd=off unseen=4 total=11 owner=server "
    + "stale=1 since=1764620000 pending=1"

  @Test func aMirroredStateLineCarriesItsOwnerStalenessAndPending() throws {
    guard case .state(let snapshot) = ReplyLine(Self.line) else {
      Issue.record("a mirrored state line parses")
      return
    }
    #expect(snapshot.mirror == MirrorState(owner: "server", stale: true, since: 1_764_620_000, pending: true))
    #expect(SnapshotFormat.plainLine(snapshot) == "ci 4 on server offline pending")
    #expect(
      SnapshotFormat.jsonLine(snapshot)
        == #"{"channel":"ci","count":4,"label":"4","dot":false,"pulse":0,"muted":false,"seq":9,"badge":"count","dnd":"off","unseen":4,"total":11,"online":true,"owner":"server","stale":true,"since":1764620000,"pending":true}"#
    )
    guard case .state(let local) = ReplyLine("STATE mail count=1 label=1 dot=0 pulse=0 muted=0 seq=2 total=1") else {
      Issue.record("a local state line parses")
      return
    }
    #expect(local.mirror == nil && SnapshotFormat.plainLine(local) == "mail 1")
    // An owner that is no host name is a line the daemon could not have sent.
    #expect(
      ReplyLine("STATE ci count=1 label=1 dot=0 pulse=0 muted=0 seq=2 owner=a/b stale=0")
        == .data("STATE ci count=1 label=1 dot=0 pulse=0 muted=0 seq=2 owner=a/b stale=0"))
  }

  @Test func statsSaysWhereAMirroredChannelsHistoryIs() {
    var collector = StatsLines.Collector(maxChannels: 10)
    collector.add("STATS ci owner=server")
    #expect(collector.stats.isEmpty)
    #expect(collector.elsewhere.map { "\($0.channel)@\($0.owner)" } == ["ci@server"])
  }

  @Test func mqttDescribesTheBridge() {
    #expect(
      MQTTCommand.describe("BRIDGE attached=0 forwards=3")
        == "bridge: not running (no badged-mqtt is connected to the daemon)\nwaiting for their owners: 3 writes\n")
    #expect(
      MQTTCommand.describe(
        "BRIDGE attached=1 host=laptop connected=0 broker=mqtts://hub:8883 pending=2 forwards=1 error=TLS error: bad CA"
      )
        == "bridge: host laptop, not connected (broker mqtts://hub:8883)\n"
        + "waiting for their owners: 1 writes here, 2 in the bridge\nlast error: TLS error: bad CA\n")
    #expect(
      MQTTCommand.describe("BRIDGE attached=1 host=laptop connected=1 broker=mqtts://hub:8883 pending=0 forwards=0")
        == "bridge: host laptop, connected to mqtts://hub:8883\nwaiting for their owners: 0 writes here, 0 in "
        + "the bridge\n"
    )
  }
}
