import BadgeCore
import Testing

@testable import BadgeServer

/// `WATCH since=<seq>`: the kept changes after the number replayed (each as it was after its
/// change, `pulse=` what is left now) and `OK watching since=<seq>`, or the snapshot and
/// `OK watching reset` when they are not all kept; then events as after any `WATCH`.
@Suite struct WatchReplayTests {
  let turns = Turns()
  static let dnd = "STATE * dnd=0 left=0"

  static func state(_ channel: String, count: Int, pulse: Int, seq: UInt64, total: Int? = nil) -> String {
    let label = count == 0 ? "" : count > 99 ? "99+" : String(count)
    return "STATE \(channel) count=\(count) label=\(label) dot=0 pulse=\(pulse) muted=0 "
      + "seq=\(seq) badge=count dnd=off unseen=\(count) total=\(total ?? count)"
  }

  /// Carries out `lines` as a writer's requests, each in a turn of its own, `gap` microseconds
  /// apart (the turn's clock moved after each).
  private func write(_ lines: String..., gap: UInt64 = 0) {
    let writer = turns.peer()
    for line in lines {
      turns.send(writer, line)
      turns.endTurn()
      turns.now += gap
    }
  }

  /// Reads `peer`'s whole reply, a chunk a turn as the daemon does once its output drained.
  private func readAll(_ peer: Peer) -> [String] {
    var lines = turns.take(peer)
    while peer.isReplying {
      turns.core.continueReply(peer)
      turns.endTurn()
      lines += turns.take(peer)
    }
    return lines
  }

  @Test func theChangesAfterTheNumberAreReplayedInOrderWithThePulseLeftNow() {
    write("INCR a", "INCR b 2", "INCR a", "SET c 5", gap: 1_000_000)
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=1")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("b", count: 2, pulse: 0, seq: 2),
        Self.state("a", count: 2, pulse: 1000, seq: 3),
        Self.state("c", count: 5, pulse: 2000, seq: 4),
        "OK watching since=1",
      ])
    turns.endTurn()
    write("INCR b")
    #expect(turns.take(watcher) == [Self.state("b", count: 3, pulse: 3000, seq: 5).replacing("STATE", with: "EVENT")])
  }

  @Test func everyChangeOfAChannelIsReplayedNotOnlyItsLatest() {
    write("INCR a", "INCR a", "DECR a", "DECR a")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=0")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("a", count: 1, pulse: 3000, seq: 1),
        Self.state("a", count: 2, pulse: 3000, seq: 2, total: 2),
        Self.state("a", count: 1, pulse: 3000, seq: 3, total: 2),
        Self.state("a", count: 0, pulse: 0, seq: 4, total: 2),  // a channel at 0 does not pulse
        "OK watching since=0",
      ])
  }

  @Test func patternsFilterTheReplayAsTheySelectASnapshot() {
    write("INCR mail", "INCR app:x", "INCR chat", "INCR app:y", "INCR mail")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=1 app:* chat")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("app:x", count: 1, pulse: 3000, seq: 2),
        Self.state("chat", count: 1, pulse: 3000, seq: 3),
        Self.state("app:y", count: 1, pulse: 3000, seq: 4),
        "OK watching since=1",
      ])
    turns.endTurn()
    write("INCR mail", "INCR app:z")
    #expect(turns.take(watcher).map { $0.split(separator: " ")[1] } == ["app:z"], "events follow the patterns")
  }

  @Test func theCurrentNumberReplaysNothing() {
    write("INCR a", "INCR b")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=2")
    #expect(turns.take(watcher) == [Self.dnd, "OK watching since=2"])
    #expect(watcher.isWatching)
  }

  @Test func aFreshDaemonReplaysNothingOnlyForItsOwnNumber() {
    let current = turns.peer()
    turns.send(current, "WATCH since=0")
    #expect(turns.take(current) == [Self.dnd, "OK watching since=0"])
    turns.core.store.restoreSeq(atLeast: 40)  // changes before a restart, not kept
    let behind = turns.peer()
    turns.send(behind, "WATCH since=39")
    #expect(turns.take(behind) == [Self.dnd, "OK watching reset"])
    let ahead = turns.peer()
    turns.send(ahead, "WATCH since=40")
    #expect(turns.take(ahead) == [Self.dnd, "OK watching since=40"])
  }

  @Test func aNumberAheadOfTheDaemonGetsTheSnapshotAndReset() {
    write("INCR a", "INCR b")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=3")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("a", count: 1, pulse: 3000, seq: 1),
        Self.state("b", count: 1, pulse: 3000, seq: 2),
        "OK watching reset",
      ])
    #expect(watcher.isWatching)
  }

  @Test func only1024ChangesAreKept() {
    let writer = turns.peer()
    for i in 1...1100 { turns.send(writer, "SET a \(i)") }
    turns.endTurn()
    #expect(turns.store.seq == 1100)
    // The oldest kept is change 77: every change after 76 is kept, change 76 is not.
    let kept = turns.peer()
    turns.send(kept, "WATCH since=76")
    let lines = readAll(kept)
    #expect(lines.count == 1 + 1024 + 1)
    #expect(lines.first == Self.dnd)
    #expect(lines.dropFirst().dropLast().map { field($0, "seq")! } == (77...1100).map { String($0) })
    #expect(lines.dropFirst().dropLast().map { field($0, "count")! } == (77...1100).map { String($0) })
    #expect(lines.last == "OK watching since=76")
    let older = turns.peer()
    turns.send(older, "WATCH since=75")
    #expect(
      readAll(older) == [
        Self.dnd, Self.state("a", count: 1100, pulse: 3000, seq: 1100), "OK watching reset",
      ])
  }

  @Test func aLongReplayHoldsTheWatchersEventsUntilItEnds() {
    let writer = turns.peer()
    for i in 1...1024 { turns.send(writer, "SET c\(1000 + i % 700) \(i)") }
    turns.endTurn()
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=0")
    #expect(watcher.isReplying, "1,024 lines are more than a chunk")
    turns.endTurn()
    // Changes while the replay is under way push its first changes out of the ring.
    for i in 1...1100 { turns.send(writer, "SET x \(i)") }
    turns.endTurn()
    let lines = readAll(watcher)
    #expect(lines.dropFirst().dropLast().map { field($0, "seq")! } == (1...1024).map { String($0) })
    #expect(lines.last == "OK watching since=0")
    #expect(turns.appendMerged(to: watcher))
    #expect(
      turns.take(watcher) == [
        Self.state("x", count: 1100, pulse: 3000, seq: 2124, total: 1100).replacing("STATE", with: "EVENT")
      ])
  }

  @Test func aPulseThatEndedIsReplayedAtZero() {
    write("INCR a", gap: 4_000_000)
    turns.core.expirePulses()
    turns.endTurn()
    write("INCR b")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=0")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("a", count: 1, pulse: 0, seq: 1),
        Self.state("b", count: 1, pulse: 3000, seq: 2),
        "OK watching since=0",
      ])
  }

  @Test func aChangeOfTheSameTurnIsReplayedAndNotSentAgain() {
    write("INCR a")
    let writer = turns.peer()
    turns.send(writer, "INCR b")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=1")
    #expect(
      turns.take(watcher) == [Self.dnd, Self.state("b", count: 1, pulse: 3000, seq: 2), "OK watching since=1"])
    turns.send(writer, "INCR c")
    turns.endTurn()
    #expect(turns.take(watcher).map { $0.split(separator: " ")[1] } == ["c"])
  }

  @Test func changesOfAFailedTurnAreNeverReplayed() {
    write("INCR a")
    turns.log.failCommits = true
    let failing = turns.peer()
    turns.send(failing, "INCR b")
    turns.endTurn()
    #expect(turns.closed.map(\.id) == [failing.id])
    turns.log.failCommits = false
    turns.now = turns.policy.nextRepair!
    turns.core.tryRepair()
    turns.endTurn()
    write("INCR c")
    #expect(turns.store.seq == 2, "the undone change's number is given again")
    let watcher = turns.peer()
    turns.send(watcher, "WATCH since=0")
    #expect(
      turns.take(watcher) == [
        Self.dnd,
        Self.state("a", count: 1, pulse: 2000, seq: 1),  // the repair came a second later
        Self.state("c", count: 1, pulse: 3000, seq: 2),
        "OK watching since=0",
      ])
  }

  @Test(arguments: [
    "WATCH since=", "WATCH since=x", "WATCH since=-1", "WATCH since=+1", "WATCH since=1.5",
    "WATCH since=18446744073709551616",
  ])
  func aBadNumberIsRefusedAndNothingIsWatched(line: String) {
    write("INCR a")
    let client = turns.peer()
    turns.send(client, line)
    let value = line.dropFirst("WATCH since=".count)
    #expect(
      turns.take(client) == [
        "ERR bad-arguments Invalid since '\(value)'; expected a sequence number, a whole number from 0; "
          + "usage: WATCH [since=<seq>] [<channel or glob> ...]"
      ])
    #expect(!client.isWatching)
  }

  @Test func theLargestNumberIsReadAndIsAhead() {
    let client = turns.peer()
    turns.send(client, "WATCH since=18446744073709551615 a")
    #expect(turns.take(client) == [Self.dnd, Self.state("a", count: 0, pulse: 0, seq: 0), "OK watching reset"])
  }

  /// A failed turn after the ring filled: its changes pushed the oldest out and are taken back,
  /// and the ring goes on from the changes that were saved.
  @Test func aFailedTurnAfterTheRingFilledLeavesOnlySavedChanges() {
    let writer = turns.peer()
    for i in 1...1100 { turns.send(writer, "SET a \(i)") }
    turns.endTurn()
    turns.log.failCommits = true
    let failing = turns.peer()
    turns.send(failing, "SET b 1", "SET b 2", "SET b 3")
    turns.endTurn()
    turns.log.failCommits = false
    turns.now = turns.policy.nextRepair!
    turns.core.tryRepair()
    turns.endTurn()
    write("SET c 1", "SET c 2")
    let kept = turns.peer()
    turns.send(kept, "WATCH since=79")
    let lines = readAll(kept)
    #expect(
      lines.dropFirst().dropLast().map { "\(field($0, "seq")!)\($0.split(separator: " ")[1])" }
        == (80...1100).map { "\($0)a" } + ["1101c", "1102c"])
    #expect(lines.last == "OK watching since=79")
    let older = turns.peer()
    turns.send(older, "WATCH since=78")
    #expect(readAll(older).last == "OK watching reset", "the failed turn's changes pushed change 79 out")
  }

  /// The figure RecentChanges' doc states: 1,024 channels of 128 bytes (names inline).
  @Test func theRingTakes128KiB() {
    #expect(MemoryLayout<Channel>.stride == 128)
    #expect(RecentChanges.capacity * MemoryLayout<Channel>.stride == 128 << 10)
  }
}
