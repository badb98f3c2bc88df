import BadgeCore
import BadgeMesh
import Testing

/// Forwarded writes: in order, once per connection, again when their owner returns or their
/// answer is late, until answered.
@Suite struct ForwardQueueTests {
  static func write(_ id: String, _ channel: String = "mail", _ op: ChannelWrite = .incr(1)) -> ForwardedWrite {
    ForwardedWrite(id: id, channel: name(channel), command: ChannelCommand(op, id: id))
  }

  @Test func writesGoOutOnceInOrder() {
    var queue = ForwardQueue()
    let added1 = queue.add(Self.write("l:1:1"))
    #expect(added1)
    let added2 = queue.add(Self.write("l:1:2", "ci"))
    #expect(added2)
    let added3 = queue.add(Self.write("l:1:1"))
    #expect(!added3)  // listed again by FORWARDS: ignored
    let sent1 = queue.toSend(now: 10)
    #expect(sent1.map(\.id) == ["l:1:1", "l:1:2"])
    let sent2 = queue.toSend(now: 20)
    #expect(sent2.isEmpty)
    queue.add(Self.write("l:1:3", "news"))
    let sent3 = queue.toSend(now: 30)
    #expect(sent3.map(\.id) == ["l:1:3"])
    #expect(queue.count == 3)
  }

  /// A channel's next write waits for the answer to the one before: an owner that missed the
  /// first (and gets it again later) never carries out the second before it.
  @Test func aChannelsNextWriteGoesOnceTheOneBeforeIsAnswered() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1", "mail", .incr(3)))
    queue.add(Self.write("l:1:2", "mail", .clear(upTo: 4)))
    queue.add(Self.write("l:1:3", "ci"))
    queue.add(Self.write("l:1:4", "mail"))
    let first = queue.toSend(now: 1)
    #expect(first.map(\.id) == ["l:1:1", "l:1:3"])
    let waiting = queue.toSend(now: 2)
    #expect(waiting.isEmpty)
    #expect(queue.toSend(in: name("mail"), now: 2).isEmpty)
    _ = queue.answered("l:1:1", CommandAnswer(id: "l:1:1"))
    let second = queue.toSend(in: name("mail"), now: 3)
    #expect(second.map(\.id) == ["l:1:2"])
    // Refused for now: it stays first, and what follows waits on.
    _ = queue.answered("l:1:2", CommandAnswer(id: "l:1:2", error: "failed disk full"))
    #expect(queue.toSend(in: name("mail"), now: 4).isEmpty)
    let stillWaiting = queue.toSend(now: 4)
    #expect(stillWaiting.isEmpty)
    _ = queue.answered("l:1:2", CommandAnswer(id: "l:1:2"))
    let third = queue.toSend(now: 5)
    #expect(third.map(\.id) == ["l:1:4"])
  }

  /// Increments of a channel go together (up to `maxInFlight`), not one round trip each; a
  /// write of another kind waits until those before it are answered, and those after it wait
  /// for it.
  @Test func incrementsOfAChannelGoTogetherUpToAnotherKindOfWrite() {
    var queue = ForwardQueue()
    for index in 1...(ForwardQueue.maxInFlight + 2) { queue.add(Self.write("l:1:\(index)")) }
    queue.add(Self.write("l:2:1", "mail", .clear(upTo: 9)))
    queue.add(Self.write("l:2:2"))
    let first = queue.toSend(now: 1)
    #expect(first.map(\.id) == (1...ForwardQueue.maxInFlight).map { "l:1:\($0)" })
    _ = queue.answered("l:1:1", CommandAnswer(id: "l:1:1"))
    let more = queue.toSend(in: name("mail"), now: 2)
    #expect(more.map(\.id) == ["l:1:\(ForwardQueue.maxInFlight + 1)"])
    for index in 2...(ForwardQueue.maxInFlight + 1) {
      _ = queue.answered("l:1:\(index)", CommandAnswer(id: "l:1:\(index)"))
    }
    let last = queue.toSend(in: name("mail"), now: 3)
    #expect(last.map(\.id) == ["l:1:\(ForwardQueue.maxInFlight + 2)"])
    _ = queue.answered("l:1:\(ForwardQueue.maxInFlight + 2)", CommandAnswer(id: "l:1:\(ForwardQueue.maxInFlight + 2)"))
    let clear = queue.toSend(in: name("mail"), now: 4)
    #expect(clear.map(\.id) == ["l:2:1"])
    #expect(queue.toSend(in: name("mail"), now: 5).isEmpty)
    _ = queue.answered("l:2:1", CommandAnswer(id: "l:2:1"))
    #expect(queue.toSend(in: name("mail"), now: 6).map(\.id) == ["l:2:2"])
  }

  @Test func aNewConnectionSendsTheFirstWritesAgain() {
    var queue = ForwardQueue()
    // A set waits behind the increment before it (increments alone would go together).
    for (id, channel, op) in [
      ("l:1:1", "mail", ChannelWrite.incr(1)), ("l:1:2", "mail", .set(5)), ("l:1:3", "ci", .incr(1)),
    ] {
      queue.add(Self.write(id, channel, op))
    }
    _ = queue.toSend(now: 1)
    queue.markAllUnsent()
    let sent4 = queue.toSend(now: 2)
    #expect(sent4.map(\.id) == ["l:1:1", "l:1:3"])
  }

  @Test func anOwnerBackOnlineGetsItsWritesAgain() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1", "mail"))
    queue.add(Self.write("l:1:2", "ci"))
    queue.add(Self.write("l:1:3", "mail", .set(5)))
    queue.add(Self.write("l:1:4", "news"))
    _ = queue.toSend(now: 1)
    let sent5 = queue.toSend(now: 2) { $0 != name("ci") }
    #expect(sent5.map(\.id) == ["l:1:1", "l:1:4"])
  }

  @Test func answersAreMatchedByIdAndDeliverOrRetry() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1"))
    queue.add(Self.write("l:1:2", "ci"))
    queue.add(Self.write("l:1:3", "news"))
    let sent = queue.toSend(now: 1)
    let applied = queue.answered("l:1:2", CommandAnswer(id: "l:1:2"))
    #expect(applied == .delivered(sent[1], refusal: nil))
    let refused = queue.answered("l:1:3", CommandAnswer(id: "l:1:3", error: "out-of-range too big"))
    #expect(refused == .delivered(sent[2], refusal: "out-of-range too big"))
    let failed = queue.answered("l:1:1", CommandAnswer(id: "l:1:1", error: "failed disk full"))
    #expect(failed == .retry(sent[0], reason: "failed disk full"))
    let outcome1 = queue.answered("l:1:9", CommandAnswer(id: "l:1:9"))
    #expect(outcome1 == .unknown)
    #expect(queue.writes.map(\.id) == ["l:1:1"])
  }

  @Test func lateAnswersAreSentAgainWithADoublingInterval() {
    var queue = ForwardQueue(firstRetryInterval: 100, maxRetryInterval: 350)
    queue.add(Self.write("l:1:1", "mail"))
    queue.add(Self.write("l:1:2", "ci"))
    _ = queue.toSend(now: 0)
    #expect(queue.nextRetry == 100)
    let late1 = queue.overdue(now: 99)
    #expect(late1.isEmpty)
    let late2 = queue.overdue(now: 100)
    #expect(late2.map(\.id) == ["l:1:1", "l:1:2"])
    #expect(queue.nextRetry == 300)
    let late3 = queue.overdue(now: 300)
    #expect(late3.count == 2)
    #expect(queue.retryInterval == 350)
    // An answer brings the interval back to its start.
    _ = queue.answered("l:1:1", CommandAnswer(id: "l:1:1"))
    #expect(queue.retryInterval == 100)
    queue.add(Self.write("l:1:3", "news"))
    // Only the late channel's writes go again; the new one waits for its first send.
    let late4 = queue.overdue(now: 1000)
    #expect(late4.map(\.id) == ["l:1:2"])
    let sent6 = queue.toSend(now: 1001)
    #expect(sent6.map(\.id) == ["l:1:3"])
  }

  @Test func theDaemonConnectionEndingEmptiesIt() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1"))
    queue.removeAll()
    #expect(queue.count == 0 && queue.nextRetry == nil)
    let added4 = queue.add(Self.write("l:1:1"))
    #expect(added4)
  }
}
