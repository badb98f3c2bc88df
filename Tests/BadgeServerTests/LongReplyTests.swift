import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeServer

/// `LIST`, a `WATCH` snapshot and `STATS` produced a chunk at a time as the output drains: no
/// step appends more than a chunk and a line, each line shows its channel as it is when the
/// line is produced, and a watcher's events wait for the end of its reply.
@Suite struct LongReplyTests {
  let turns = Turns()
  static let chunk = CommandExecutor<Peer>.replyChunk

  /// `count` channels `c00000`, `c00001`, … set to 1, in one turn.
  private func makeChannels(_ count: Int) {
    let writer = turns.peer()
    for i in 0..<count { turns.send(writer, "SET \(Self.channel(i)) 1") }
    turns.endTurn()
  }

  private static func channel(_ i: Int) -> String { "c" + String(100_000 + i).dropFirst() }

  /// Reads the reply of `peer` to its end, a chunk a turn (as the daemon does once the output
  /// has drained), checking that no step appended more than a chunk and a line. `between` runs
  /// before each later chunk. Returns the lines, and how many steps it took.
  private func readAll(_ peer: Peer, between: (Int) -> Void = { _ in }) -> (lines: [String], steps: Int) {
    var lines: [String] = []
    var steps = 0
    while true {
      #expect(peer.pendingOutput <= Self.chunk + 512, "a step appends a chunk and a line at most")
      lines += turns.take(peer)
      steps += 1
      guard peer.isReplying else { return (lines, steps) }
      between(steps)
      turns.core.continueReply(peer)
      turns.endTurn()
    }
  }

  @Test func aShortListIsWholeInItsOwnTurn() {
    makeChannels(3)
    let peer = turns.peer()
    turns.send(peer, "LIST")
    #expect(!peer.isReplying)
    #expect(turns.take(peer).map { String($0.prefix(12)) } == ["STATE c00000", "STATE c00001", "STATE c00002", "OK"])
  }

  @Test func aLongListComesAChunkAtATimeInOrderAndComplete() {
    makeChannels(3000)
    let peer = turns.peer()
    turns.send(peer, "LIST")
    #expect(peer.isReplying)
    turns.endTurn()
    let (lines, steps) = readAll(peer)
    #expect(steps > 3)
    #expect(lines.last == "OK")
    #expect(lines.dropLast().map { String($0.split(separator: " ")[1]) } == (0..<3000).map(Self.channel))
    #expect(lines.dropLast().allSatisfy { field($0, "count") == "1" })
  }

  @Test func eachLineShowsItsChannelWhenTheLineIsProduced() {
    makeChannels(3000)
    let writer = turns.peer()
    let peer = turns.peer()
    turns.send(peer, "LIST")
    turns.endTurn()
    let (lines, _) = readAll(peer) { step in
      guard step == 1 else { return }
      // Between the chunks: a change of a channel not shown yet, a new channel after the last
      // one shown, one forgotten before its line, and a change of a channel shown already.
      turns.send(writer, "SET c02999 7", "SET c02500x 1", "CLEAR c02000", "SET c00000 9")
      turns.endTurn()
    }
    let counts = Dictionary(
      uniqueKeysWithValues: lines.dropLast().map { (String($0.split(separator: " ")[1]), field($0, "count")!) })
    #expect(counts["c02999"] == "7", "changed before its line: the line shows the change")
    #expect(counts["c02500x"] == "1", "created after the last line shown, and before its place")
    #expect(counts["c02000"] == nil, "forgotten before its line")
    #expect(counts["c00000"] == "1", "shown before the change")
    #expect(counts.count == 3000)
    let names = lines.dropLast().map { String($0.split(separator: " ")[1]) }
    #expect(names == names.sorted(by: { name($0) < name($1) }), "in name order")
  }

  @Test func aWatchSnapshotHoldsTheWatchersEventsUntilItEnds() {
    makeChannels(3000)
    let writer = turns.peer()
    let watcher = turns.peer()
    turns.send(watcher, "WATCH c*")
    #expect(watcher.isReplying)
    turns.endTurn()
    let (lines, _) = readAll(watcher) { step in
      guard step <= 2 else { return }
      turns.send(writer, "SET c00001 \(step + 1)", "SET c02998 \(step + 1)", "SET new\(step) 1", "SET cnew 5")
      turns.endTurn()
    }
    #expect(lines.first == "STATE * dnd=0 left=0")
    #expect(lines.last == "OK watching")
    #expect(!lines.contains { $0.hasPrefix("EVENT ") }, "no event between the lines of the snapshot")
    #expect(lines.filter { $0.hasPrefix("STATE c") }.count == 3001)
    // Its events, held meanwhile: each changed channel it watches, at its latest state.
    #expect(turns.appendMerged(to: watcher))
    let events = turns.take(watcher).map { "\($0.split(separator: " ")[1]) \(field($0, "count")!)" }
    #expect(Set(events) == ["c00001 3", "c02998 3", "cnew 5"])
    #expect(events.last == "c02998 3", "in the order of their latest changes")
    turns.send(writer, "INCR c00002")
    turns.endTurn()
    #expect(turns.take(watcher).map { String($0.prefix(20)) } == ["EVENT c00002 count=2"], "caught up")
  }

  @Test func aLongStatsReplyIsTheSameLinesAsStatsLinesWrite() {
    let writer = turns.peer()
    for i in 0..<40 { turns.send(writer, "INCR s\(i) \(i + 1)", "CLEAR s\(i)") }
    turns.endTurn()
    let peer = turns.peer()
    turns.send(peer, "STATS year s1* s3 nothing")
    turns.endTurn()
    let (lines, steps) = readAll(peer)
    #expect(steps > 1, "about 15 KiB a channel: more than a chunk")
    var expected: [UInt8] = []
    let names = ["nothing", "s1", "s3"] + (10..<20).map { "s\($0)" }
    for text in names.sorted(by: { name($0) < name($1) }) {
      StatsLines.append(
        turns.store.history.stats(of: name(text), period: .year, today: turns.store.today), to: &expected)
    }
    #expect(lines.dropLast() == String(decoding: expected, as: UTF8.self).split(separator: "\n").map(String.init)[...])
    #expect(lines.last == "OK")
    #expect(lines.count == 13 * 366 + 1)
  }

  @Test func aWatcherAskingForALongListGetsItsEventsAfterIt() {
    makeChannels(3000)
    let writer = turns.peer()
    let watcher = turns.watcher("WATCH c00001")
    turns.send(watcher, "LIST")
    turns.send(writer, "SET c00001 5")
    turns.endTurn()
    let (lines, _) = readAll(watcher)
    #expect(!lines.contains { $0.hasPrefix("EVENT ") })
    #expect(lines.last == "OK")
    #expect(turns.appendMerged(to: watcher))
    #expect(turns.take(watcher).map { String($0.prefix(20)) } == ["EVENT c00001 count=5"])
  }

  /// PROTOCOL.md, "Slow readers": the held events come in the order of each channel's latest
  /// event, and a pulse window's end is one. A channel changed before another, whose window ends
  /// after the other's change while the events are held, comes after that change, at its latest
  /// state: so a client that reads the held events only until a later change's event does not
  /// have every channel's state yet.
  @Test func aWindowEndingWhileHeldKeepsItsChannelInTheOrderOfItsChange() {
    makeChannels(3000)
    turns.now += 4_000_000  // every window of those channels ends with no one watching
    turns.core.expirePulses()
    turns.endTurn()
    let writer = turns.peer()
    let watcher = turns.peer()
    turns.send(watcher, "WATCH c*")
    #expect(watcher.isReplying)
    turns.endTurn()
    // Both shown already by the snapshot's first chunk, at count 1.
    turns.send(writer, "INCR c00001")
    turns.endTurn()
    turns.now += 1_000_000
    turns.send(writer, "INCR c00002")
    turns.endTurn()
    // The window of c00001 (pulse_ms, 3 s) ends, that of c00002 not yet, while the snapshot is
    // still under way.
    turns.now += 2_500_000
    turns.core.expirePulses()
    turns.endTurn()
    let (lines, _) = readAll(watcher)
    #expect(lines.last == "OK watching")
    let shown = lines.filter { $0.hasPrefix("STATE c00001 ") || $0.hasPrefix("STATE c00002 ") }
    #expect(shown.map { field($0, "count") } == ["1", "1"])
    #expect(turns.appendMerged(to: watcher))
    let events = turns.take(watcher).map {
      "\($0.split(separator: " ")[1]) count=\(field($0, "count")!) pulse=\(field($0, "pulse")!)"
    }
    // c00001's latest event is its window's end, after c00002's INCR, but its change came
    // first: merged events go in the order of their changes, so the numbers sent never go back.
    #expect(events == ["c00001 count=2 pulse=0", "c00002 count=2 pulse=500"])
  }

  @Test func aClosedClientDropsItsReply() {
    makeChannels(3000)
    let peer = turns.peer()
    turns.send(peer, "WATCH")
    #expect(peer.isReplying)
    turns.close(peer)
    #expect(!peer.isReplying)
    #expect(turns.subscriptions.count == 0)
    #expect(turns.subscriptions.backlog.isEmpty)
  }
}
