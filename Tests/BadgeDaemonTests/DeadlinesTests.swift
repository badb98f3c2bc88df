import BadgeConfig
import BadgeCore
import Testing

@testable import BadgeDaemon

/// Every deadline of the server in one table on one timer: the alarm is set for the earliest
/// alone, a deadline that leaves the earliest as it was costs no setting, an idle server sets
/// none, and deadlines due together run earliest first, in one turn.
@Suite struct DeadlinesTests {
  @Test func anIdleServerWithAWatcherSetsNoAlarm() throws {
    let harness = try ServerHarness()
    let watcher = try harness.connect(sending: "WATCH\n")
    let client = try harness.connect(sending: "PING\n")
    #expect(try client.lines() == ["OK pong"])
    #expect(try watcher.lines() == ["STATE * dnd=0 left=0", "OK watching"])
    #expect(harness.server.deadlines.count == 0)
    #expect(harness.alarm.sets == 0)
    #expect(harness.alarm.deadline == nil)
    harness.advance(by: 3_600_000_000)
    #expect(try harness.turn() == false)
  }

  @Test func theAlarmFollowsTheEarliestDeadlineAndAnUnchangedOneCostsNothing() throws {
    let harness = try ServerHarness()
    let watcher = try harness.connect(sending: "WATCH a b\n")
    _ = try watcher.lines()
    let writer = try harness.connect(sending: "INCR a\n")
    let start = harness.clock.now
    #expect(harness.alarm.deadline == start + 3_000_000, "the end of a's pulse window")
    #expect(harness.alarm.sets == 1)
    try writer.send("INCR b\n")
    harness.advance(by: 1000)
    #expect(try harness.turn())
    #expect(harness.server.deadlines.count == 1, "one deadline for every pulse window")
    #expect(harness.alarm.sets == 1, "the earliest is still a's: nothing to set")
    #expect(try watcher.lines().count == 2)

    harness.advance(by: 3_000_000 - 1000)
    #expect(try harness.turn())
    #expect(try watcher.lines().map { $0.prefix(24) } == ["EVENT a count=1 label=1 "])
    #expect(harness.alarm.deadline == start + 1000 + 3_000_000, "now b's")
    #expect(harness.alarm.sets == 2)
    harness.advance(by: 1000)
    #expect(try harness.turn())
    #expect(try watcher.lines().count == 1)
    #expect(harness.alarm.deadline == nil)
    #expect(harness.alarm.sets == 3)
    _ = try writer.lines()
  }

  @Test func deadlinesDueTogetherRunEarliestFirstInOneTurn() throws {
    var config = DaemonConfig()
    config.limits.lineTimeoutMs = 1000
    let harness = try ServerHarness(config: config)
    let start = harness.clock.now
    let client = try harness.connect(sending: "DND on 1000ms\n")
    #expect(try client.lines().first?.hasPrefix("STATE * dnd=1 left=1000") == true)
    harness.advance(by: 1)
    let slow = try harness.connect(sending: "GE")  // its line's deadline comes a microsecond later
    #expect(harness.alarm.deadline == start + 1_000_000)
    harness.advance(by: 1_000_000)
    #expect(try harness.turn())
    let id = try #require(slow.connection).id
    #expect(
      harness.logged.suffix(3) == [
        "Do-not-disturb ended.", "Client \(id): no end of line within 1000 ms, closing.", "Client \(id) disconnected.",
      ])
    #expect(try slow.lines().first?.hasPrefix("ERR timeout ") == true)
    #expect(try harness.turn() == false, "both ran in the one turn")
  }
}
