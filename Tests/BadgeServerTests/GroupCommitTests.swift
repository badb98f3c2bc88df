import BadgeCore
import Testing

@testable import BadgeServer

/// A commit the change log refuses: the turn is taken back, and changes wait for a repair.
@Suite struct GroupCommitTests {
  let turns = Turns()

  /// Everything the store holds, for exact comparisons.
  func everything() -> [String] {
    turns.store.channels.map {
      "\($0.name) count=\($0.count) override=\($0.override) pulseUntil=\($0.pulseUntil) seq=\($0.seq)"
    } + ["seq=\(turns.store.seq)"]
  }

  /// A store with saved state, a watcher and a reader that both read before the failing turn.
  func failedTurn() -> (watcher: Peer, writer: Peer, lateReader: Peer, earlyReader: Peer, before: [String]) {
    let watcher = turns.peer()
    let writer = turns.peer()
    turns.send(watcher, "WATCH")
    turns.send(writer, "SET mail 5", "MUTE chat")
    turns.endTurn()
    _ = turns.take(watcher)
    _ = turns.take(writer)
    let before = everything()

    turns.log.failCommits = true
    turns.now += 1000  // the failing turn happens later than the saved one (a turn has one instant)
    let earlyReader = turns.peer()
    turns.send(earlyReader, "GET mail")  // before any change of the turn: shows saved state
    turns.send(writer, "INCR mail", "INCR new", "UNMUTE chat", "CONFIGURE mail max_label=3")
    let lateReader = turns.peer()
    turns.send(lateReader, "GET new")  // shows a change that is not saved
    turns.endTurn()
    return (watcher, writer, lateReader, earlyReader, before)
  }

  @Test func aFailedCommitUndoesTheTurnExactly() {
    let (_, _, _, _, before) = failedTurn()
    let after = everything().filter { !$0.hasPrefix("new ") }
    #expect(after == before)
    #expect(turns.store.channel(named: name("new")).count == 0)
    #expect(turns.store.listed.map(\.name.description) == ["chat", "mail"])
  }

  @Test func aFailedCommitDropsItsEventsAndClosesWhoSawItsChanges() {
    let (watcher, writer, lateReader, earlyReader, _) = failedTurn()
    #expect(watcher.output.isEmpty, "no event of an unsaved change")
    #expect(!turns.closed.contains { $0 === watcher })
    #expect(turns.closed.map(\.id) == [writer.id, lateReader.id])
    #expect(writer.output.isEmpty && lateReader.output.isEmpty, "closed without replies")
    #expect(
      turns.take(earlyReader) == [
        "STATE mail count=5 label=5 dot=0 pulse=2999 muted=0 seq=1 badge=count dnd=off unseen=5 total=5", "OK",
      ])
  }

  /// The end of a turn is two named steps: `save`, the change log's one commit, and `publish`.
  /// A failed save returns what it took back (the channels undone, and the clients that saw
  /// them, their output dropped) for the caller to close before `publish`, which then sends
  /// none of their events; a save that succeeds returns nothing and every event goes out.
  @Test func aFailedSaveReturnsWhatItTookBackAndPublishSkipsIt() {
    let watcher = turns.watcher()
    let writer = turns.peer()
    func endSending() {
      turns.core.turn.enter(.sending)
      turns.core.turn.ended()
    }
    turns.send(writer, "INCR mail")
    #expect(turns.commit.save() == nil)
    turns.commit.publish(dropping: nil)
    #expect(
      turns.take(watcher).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
        "EVENT mail count=1"
      ])
    _ = turns.take(writer)
    endSending()

    let reader = turns.peer()
    turns.log.failCommits = true
    turns.send(reader, "GET chat")  // before any change: shows saved state, keeps its reply
    turns.send(writer, "INCR mail", "INCR chat")
    let undone = turns.commit.save()
    #expect(undone?.channels == [name("mail"), name("chat")])
    #expect(undone?.dnd == false)
    #expect(undone?.clients.map(\.id) == [writer.id])
    #expect(writer.output.isEmpty, "its replies are dropped")
    #expect(turns.store.channel(named: name("mail")).count == 1, "back to what was saved")
    turns.commit.publish(dropping: undone)
    #expect(watcher.output.isEmpty)
    #expect(turns.take(reader).count == 2)
    endSending()
  }

  /// The repair timer fires: the core tries a repair in a turn of its own.
  func repairTimerFires() {
    turns.now = turns.policy.nextRepair!
    turns.core.tryRepair()
    turns.endTurn()
  }

  @Test func whileFailingChangesAreRefusedReadsServedAndRepairIsRetried() {
    _ = failedTurn()
    #expect(turns.policy.nextRepair == turns.now + 1_000_000, "a repair is due a second after the failure")
    #expect(turns.policy.isFailing)
    let client = turns.peer()
    turns.send(client, "INCR mail", "CLEAR *", "GET mail")
    let lines = turns.take(client)
    #expect(lines.count == 4)
    #expect(
      lines[0]
        == "ERR failed Changes are refused until the state can be saved again: Failed to write to 'journal': "
        + "Input/output error"
    )
    #expect(lines[1] == lines[0])
    #expect(lines[2].hasPrefix("STATE mail count=5 "))
    #expect(lines[3] == "OK")
    turns.endTurn()
    #expect(turns.closed.count == 2, "a refused change closes nobody")

    // The first repair fails and is tried again; the second one succeeds.
    turns.log.failCommits = false
    turns.log.failRepairs = true
    repairTimerFires()
    #expect(turns.policy.isFailing)
    #expect(turns.policy.nextRepair == turns.now + 1_000_000, "the next try a second later")
    #expect(turns.policy.failedRepairs == 1)
    turns.log.failRepairs = false
    repairTimerFires()
    #expect(!turns.policy.isFailing)
    #expect(turns.policy.nextRepair == nil)
    #expect(turns.log.repairs == 2)
    turns.send(client, "INCR mail")
    #expect(
      turns.take(client) == [
        "STATE mail count=6 label=6 dot=0 pulse=3000 muted=0 seq=3 badge=count dnd=off unseen=6 total=6", "OK",
      ])
    turns.endTurn()
    #expect(turns.log.savedCounts["mail"] == 6)
  }

  @Test func aFailureOutsideACommitEntersTheSamePolicyOnce() {
    turns.log.failures?.failed(DiskError(), "changes already acknowledged are kept in memory.")
    let due = turns.policy.nextRepair
    turns.now += 500_000
    turns.endTurn()
    turns.log.failures?.failed(DiskError(), "changes already acknowledged are kept in memory.")
    #expect(turns.policy.isFailing)
    #expect(turns.policy.failuresSinceLastSave == 2)
    #expect(turns.policy.nextRepair == due, "one repair loop, however many failures")
    #expect(
      turns.logLines.lines.filter { $0.contains("Refusing changes") } == [
        "Failed to write to 'journal': Input/output error; changes already acknowledged are kept in memory. "
          + "Refusing changes until the state can be saved."
      ])
    let client = turns.peer()
    turns.send(client, "SET mail 1")
    #expect(turns.take(client).first?.hasPrefix("ERR failed ") == true)
    repairTimerFires()
    turns.send(client, "SET mail 1")
    #expect(turns.take(client).first?.hasPrefix("STATE mail count=1 ") == true)
  }

  @Test func eventsThatAreNotChangesSurviveAFailedCommit() {
    let watcher = turns.watcher()
    turns.log.failCommits = true
    let writer = turns.peer()
    turns.send(writer, "INCR mail")
    turns.commit.stage(turns.store.channel(named: name("other")))  // e.g. a reload's event
    turns.endTurn()
    #expect(
      turns.take(watcher) == [
        "EVENT other count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0"
      ])
  }
}
