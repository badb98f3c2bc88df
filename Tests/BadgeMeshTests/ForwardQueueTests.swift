import BadgeCore
import BadgeMesh
import Testing

/// Forwarded writes: in order, once per connection, again when their owner returns or their
/// answer is late, until answered.
@Suite struct ForwardQueueTests {
  static func write(_ id: String, _ channel: String = "mail", _ op: ChannelCommand.Op = .incr(1)) -> ForwardedWrite {
    ForwardedWrite(id: id, channel: name(channel), command: ChannelCommand(op, id: id))
  }

  @Test func writesGoOutOnceInOrder() {
    var queue = ForwardQueue()
    let result1 = queue.add(Self.write("l:1:1"))
    #expect(result1)
    let result2 = queue.add(Self.write("l:1:2", "ci"))
    #expect(result2)
    let result3 = queue.add(Self.write("l:1:1"))
    #expect(!result3)  // listed again by FORWARDS: ignored
    let result4 = queue.toSend(now: 10)
    #expect(result4.map(\.id) == ["l:1:1", "l:1:2"])
    let result5 = queue.toSend(now: 20)
    #expect(result5.isEmpty)
    queue.add(Self.write("l:1:3"))
    let result6 = queue.toSend(now: 30)
    #expect(result6.map(\.id) == ["l:1:3"])
    #expect(queue.count == 3)
  }

  @Test func aNewConnectionSendsEverythingAgainInOrder() {
    var queue = ForwardQueue()
    for id in ["l:1:1", "l:1:2", "l:1:3"] { queue.add(Self.write(id)) }
    _ = queue.toSend(now: 1)
    queue.markAllUnsent()
    let result7 = queue.toSend(now: 2)
    #expect(result7.map(\.id) == ["l:1:1", "l:1:2", "l:1:3"])
  }

  @Test func anOwnerBackOnlineGetsItsWritesAgain() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1", "mail"))
    queue.add(Self.write("l:1:2", "ci"))
    queue.add(Self.write("l:1:3", "mail"))
    _ = queue.toSend(now: 1)
    let result8 = queue.toSend(now: 2) { $0 == name("mail") }
    #expect(result8.map(\.id) == ["l:1:1", "l:1:3"])
  }

  @Test func answersAreMatchedByIdAndDeliverOrRetry() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1"))
    queue.add(Self.write("l:1:2"))
    queue.add(Self.write("l:1:3"))
    let sent = queue.toSend(now: 1)
    let applied = queue.answered("l:1:2", CommandAnswer(id: "l:1:2"))
    #expect(applied == .delivered(sent[1], refusal: nil))
    let refused = queue.answered("l:1:3", CommandAnswer(id: "l:1:3", error: "out-of-range too big"))
    #expect(refused == .delivered(sent[2], refusal: "out-of-range too big"))
    let failed = queue.answered("l:1:1", CommandAnswer(id: "l:1:1", error: "failed disk full"))
    #expect(failed == .retry(sent[0], reason: "failed disk full"))
    let result10 = queue.answered("l:1:9", CommandAnswer(id: "l:1:9"))
    #expect(result10 == .unknown)
    #expect(queue.writes.map(\.id) == ["l:1:1"])
  }

  @Test func lateAnswersAreSentAgainWithADoublingInterval() {
    var queue = ForwardQueue(firstRetryInterval: 100, maxRetryInterval: 350)
    queue.add(Self.write("l:1:1", "mail"))
    queue.add(Self.write("l:1:2", "ci"))
    _ = queue.toSend(now: 0)
    #expect(queue.nextRetry == 100)
    let result11 = queue.overdue(now: 99)
    #expect(result11.isEmpty)
    let result12 = queue.overdue(now: 100)
    #expect(result12.map(\.id) == ["l:1:1", "l:1:2"])
    #expect(queue.nextRetry == 300)
    let result13 = queue.overdue(now: 300)
    #expect(result13.count == 2)
    #expect(queue.retryInterval == 350)
    // An answer brings the interval back to its start.
    _ = queue.answered("l:1:1", CommandAnswer(id: "l:1:1"))
    #expect(queue.retryInterval == 100)
    queue.add(Self.write("l:1:3", "news"))
    // Only the late channel's writes go again; the new one waits for its first send.
    let result14 = queue.overdue(now: 1000)
    #expect(result14.map(\.id) == ["l:1:2"])
    let result15 = queue.toSend(now: 1001)
    #expect(result15.map(\.id) == ["l:1:3"])
  }

  @Test func theDaemonConnectionEndingEmptiesIt() {
    var queue = ForwardQueue()
    queue.add(Self.write("l:1:1"))
    queue.removeAll()
    #expect(queue.count == 0 && queue.nextRetry == nil)
    let result16 = queue.add(Self.write("l:1:1"))
    #expect(result16)
  }
}
