import Foundation
import Testing

/// A browser's resume after badged-web itself restarted: its new ring starts at badged's
/// snapshot, so the changes missed come from badged's replay (`WATCH since=`); those badged no
/// longer keeps give `reset` and a snapshot, never a silent gap.
@Suite struct WebResumeTests {
  @Test func afterARestartOfBadgedWebTheChangesMissedAreReplayedByBadged() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    try rig.ctl("incr", "mail")
    let first = try EventStreamReader(rig: rig, token: token)
    #expect(try first.nextEvent().id == "1")
    try rig.ctl("incr", "mail")
    #expect(try first.nextEvent().id == "2")
    try rig.restartWeb {
      #expect(first.ended())
      for _ in 0..<3 { try rig.ctl("incr", "mail") }
      try rig.ctl("incr", "ci", "5")
    }
    let resumed = try EventStreamReader(rig: rig, token: token, lastEventID: "2")
    var seen: [String] = []
    for _ in 0..<4 {
      let event = try resumed.nextEvent()
      #expect(event.name == "change")
      seen.append("\(event.id ?? "") " + (event.data.flatMap { WebStreamTests.field("count", in: $0) } ?? ""))
    }
    #expect(seen == ["3 3", "4 4", "5 5", "6 5"])
    try rig.ctl("incr", "ci")
    let next = try resumed.nextEvent()
    #expect(next.id == "7")
    #expect(next.data.flatMap { WebStreamTests.field("count", in: $0) } == "6")
  }

  @Test func aResumeOlderThanBadgedKeepsGetsResetAndASnapshot() throws {
    let rig = try WebRig()
    let token = try rig.token(readOnly: true)
    try rig.ctl("incr", "mail")
    try rig.restartWeb {
      let writer = try rig.daemon.client()
      for _ in 0..<1100 { _ = try writer.request("INCR ci") }
    }
    let resumed = try EventStreamReader(rig: rig, token: token, lastEventID: "1")
    let reset = try resumed.nextEvent()
    #expect(reset.name == "reset")
    #expect(reset.data == "{\"reason\":\"gap\"}")
    let snapshot = try resumed.nextEvent()
    #expect(snapshot.name == "snapshot")
    #expect(snapshot.id == "1101")
    #expect(snapshot.data?.contains("{\"name\":\"ci\",\"count\":1100,") == true)
  }
}
