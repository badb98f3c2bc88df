import BadgeCore
import Testing

@testable import BadgeServer

/// The send budget of a turn: every client that owes a reply is sent to, and at most the
/// budget of the others (watchers whose output is events); the rest are carried over, in
/// order, to the head of the next turn's queue, their events kept and merged as any unsent
/// output's.
@Suite struct SendBudgetTests {
  let turns = Turns()

  /// The channel and count of each event or state line; a status line as it is.
  private func counts(_ lines: [String]) -> [String] {
    lines.map { line in
      let words = line.split(separator: " ")
      return words.count > 1 ? "\(words[1]) \(field(line, "count") ?? "")" : line
    }
  }

  @Test func aTurnSendsEveryReplyAndItsBudgetOfWatchersAndCarriesTheRestInOrder() {
    let watchers = (0..<5).map { _ in turns.watcher() }
    let writer = turns.peer()
    turns.budget = 2
    turns.send(writer, "INCR a")
    #expect(turns.endTurn().map(\.id) == [writer.id, watchers[0].id, watchers[1].id])
    #expect(turns.core.sendQueue.carriedCount == 3)
    #expect(watchers[2...].allSatisfy { $0.carriedOver && $0.queuedForSend })
    // The carried ones come first, then those the new turn queued.
    turns.send(writer, "INCR a")
    #expect(turns.endTurn().map(\.id) == [writer.id, watchers[2].id, watchers[3].id])
    #expect(turns.endTurn().map(\.id) == [watchers[4].id, watchers[0].id])
    #expect(turns.endTurn().map(\.id) == [watchers[1].id])
    #expect(turns.endTurn().isEmpty)
    #expect(turns.core.sendQueue.carriedCount == 0)
    #expect(watchers.allSatisfy { !$0.carriedOver && !$0.queuedForSend })
  }

  @Test func aCarriedWatcherGetsEveryEventInOrderWhenItIsReached() {
    let watchers = (0..<3).map { _ in turns.watcher() }
    let writer = turns.peer()
    turns.budget = 1
    var seen: [Int: [String]] = [:]
    func endTurn() {
      for peer in turns.endTurn() where peer !== writer { seen[peer.id, default: []] += turns.take(peer) }
      _ = turns.take(writer)
    }
    for _ in 0..<3 {
      turns.send(writer, "INCR a", "INCR b")
      endTurn()
    }
    while turns.core.sendQueue.carriedCount > 0 { endTurn() }
    for watcher in watchers {
      #expect(counts(seen[watcher.id] ?? []) == ["a 1", "b 1", "a 2", "b 2", "a 3", "b 3"], "watcher \(watcher.id)")
      #expect(watcher.behindFrom == nil)
    }
  }

  /// A watcher carried over by the budget that sends a request is sent to in the turn that
  /// carried it out, whatever the budget: its events first, then the reply, as they came.
  @Test func aRequestIsAnsweredInItsTurnAfterTheEventsCarriedBeforeIt() {
    let watchers = (0..<3).map { _ in turns.watcher() }
    let writer = turns.peer()
    turns.budget = 0
    turns.send(writer, "INCR a")
    #expect(turns.endTurn().map(\.id) == [writer.id])
    #expect(turns.core.sendQueue.carriedCount == 3)
    turns.send(watchers[1], "GET a")
    #expect(turns.endTurn().map(\.id) == [watchers[1].id])
    #expect(counts(turns.take(watchers[1])) == ["a 1", "a 1", "OK"])
    #expect(turns.core.sendQueue.carriedCount == 2)
    turns.budget = .max
    #expect(turns.endTurn().map(\.id) == [watchers[0].id, watchers[2].id])
  }

  /// Output that waits for its reply to be sent (a socket full) keeps its priority: it is
  /// sent in every turn until it has all gone, ahead of the budget.
  @Test func aReplyNotYetAllSentKeepsItsPlace() {
    let watcher = turns.watcher()
    let client = turns.peer()
    turns.budget = 0
    turns.send(client, "GET a")
    #expect(turns.endTurn().map(\.id) == [client.id])
    #expect(client.owesReply, "nothing was sent of it")
    turns.core.sendQueue.add(client)  // room to write again
    let writer = turns.peer()
    turns.send(writer, "INCR a")
    #expect(turns.endTurn().map(\.id) == [client.id, writer.id])
    _ = turns.take(client)
    #expect(!client.owesReply)
    #expect(watcher.carriedOver)
  }

  @Test func aClientClosedWhileCarriedIsDroppedFromTheQueue() {
    let watchers = (0..<3).map { _ in turns.watcher() }
    let writer = turns.peer()
    turns.budget = 1
    turns.send(writer, "INCR a")
    #expect(turns.endTurn().map(\.id) == [writer.id, watchers[0].id])
    turns.close(watchers[1])
    #expect(turns.endTurn().map(\.id) == [watchers[2].id])
    #expect(turns.core.sendQueue.carriedCount == 0)
  }

  /// Carried output counts as unsent: a watcher the budget did not reach, whose output passed
  /// the high-water mark meanwhile, gets the channel's latest state once it is reached, as a
  /// watcher behind does (PROTOCOL.md, "Slow readers").
  @Test func aWatcherCarriedPastTheHighWaterMarkGetsMergedEvents() {
    let watchers = (0..<2).map { _ in turns.watcher() }
    let writer = turns.peer()
    let burst = Array(repeating: "INCR a", count: 50)  // 50 lines of 93 bytes: over 4 KiB
    turns.budget = 1
    func turn() -> [Int] {
      for line in burst { turns.send(writer, line) }
      defer { _ = turns.take(writer) }
      return turns.endTurn().map(\.id)
    }
    #expect(turn() == [writer.id, watchers[0].id])
    var first = turns.take(watchers[0])
    #expect(turn() == [writer.id, watchers[1].id], "the carried one first")
    #expect(watchers[1].behindFrom != nil, "over 8 KiB unsent")
    var second = turns.take(watchers[1])
    #expect(turns.appendMerged(to: watchers[1]))
    second += turns.take(watchers[1])
    first += turns.take(watchers[0])  // reached in the turn that merged the other's events
    #expect(counts(first) == (1...100).map { "a \($0)" })
    let kept = second.count - 1
    #expect(kept > 50 && kept < 100, "\(kept) lines before the high-water mark")
    #expect(counts(second) == (1...kept).map { "a \($0)" } + ["a 100"])
  }
}
