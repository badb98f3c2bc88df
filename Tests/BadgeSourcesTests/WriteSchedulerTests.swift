import BadgeSources
import Testing

/// `WriteScheduler` and `SourceRequestIDs`: the leading edge, one write on its way, at most one
/// per interval, and the unanswered write sent first after a reconnect with its id.
@Suite struct WriteSchedulerTests {
  @Test func ids() {
    var ids = SourceRequestIDs(random: 0x7F3A_91C2)
    #expect(ids.prefix == "src-7f3a91c2")
    #expect(ids.next() == "src-7f3a91c2:1")
    #expect(ids.next() == "src-7f3a91c2:2")
    var small = SourceRequestIDs(random: 0xAB)
    #expect(small.next() == "src-000000ab:1")
  }

  @Test func theFirstWriteGoesAtOnceThenOneAnInterval() {
    var scheduler = WriteScheduler<Int>(coalesceMs: 50)
    #expect(scheduler.interval == 50_000)
    #expect(scheduler.decide(now: 1_000_000) == .send)
    scheduler.sent(1, id: "src-1:1", now: 1_000_000)
    #expect(scheduler.decide(now: 1_000_010) == .busy)
    #expect(scheduler.answered(id: "src-1:1") == 1)
    #expect(scheduler.decide(now: 1_000_020) == .wait(until: 1_050_000))
    #expect(scheduler.decide(now: 1_049_999) == .wait(until: 1_050_000))
    #expect(scheduler.decide(now: 1_050_000) == .send)
    // A quiet channel writes at once again.
    scheduler.sent(2, id: "src-1:2", now: 1_050_000)
    _ = scheduler.answered(id: "src-1:2")
    #expect(scheduler.decide(now: 9_000_000) == .send)
  }

  @Test func aBurstOfTwoSecondsIsFortyWrites() {
    var scheduler = WriteScheduler<Int>(coalesceMs: 50)
    var writes = 0
    var ids = SourceRequestIDs(random: 1)
    // 10,000 deliveries over 2 s, one each 200 µs; the daemon answers each write 1 ms later.
    var answerAt: UInt64?
    var pending = false
    for step in 0..<10_000 {
      let now = UInt64(step) * 200
      if let due = answerAt, now >= due, let id = scheduler.inFlight?.id {
        _ = scheduler.answered(id: id)
        answerAt = nil
      }
      pending = true
      if pending, scheduler.decide(now: now) == .send {
        scheduler.sent(step, id: ids.next(), now: now)
        answerAt = now + 1000
        writes += 1
        pending = false
      }
    }
    #expect(writes == 40)
  }

  @Test func zeroCoalescingWritesOnEachAnswer() {
    var scheduler = WriteScheduler<Int>(coalesceMs: 0)
    scheduler.sent(1, id: "a", now: 5)
    #expect(scheduler.decide(now: 5) == .busy)
    _ = scheduler.answered(id: "a")
    #expect(scheduler.decide(now: 5) == .send)
  }

  @Test func theUnansweredWriteIsSentFirstAfterAReconnect() {
    var scheduler = WriteScheduler<String>(coalesceMs: 50)
    #expect(scheduler.resend(now: 0) == nil)
    scheduler.sent("SET mail 5 new=1", id: "src-7f3a91c2:12", now: 100)
    // The connection closed; on the next one the same write and id go first.
    let again = scheduler.resend(now: 900_000)
    #expect(again?.id == "src-7f3a91c2:12" && again?.write == "SET mail 5 new=1")
    #expect(scheduler.decide(now: 900_001) == .busy)
    // An answer to another id (from before) is not this write's.
    #expect(scheduler.answered(id: "src-7f3a91c2:11") == nil)
    #expect(scheduler.answered(id: "src-7f3a91c2:12") == "SET mail 5 new=1")
    #expect(scheduler.decide(now: 900_002) == .wait(until: 950_000))
  }
}

/// `ItemSet` and `WriteScheduler` together, as the core drives them for one channel.
@Suite struct ChannelWritesTests {
  /// 10,000 deliveries 200 µs apart, a third of them read again 60 ms later (once written);
  /// the daemon answers each write 1 ms after it, its total growing by each write's `k`.
  @Test func aBurstEndsExactWithFewWrites() {
    var set = ItemSet<Int>(daemonCount: 0)
    var scheduler = WriteScheduler<ItemSet<Int>.Report>(coalesceMs: 50)
    var ids = SourceRequestIDs(random: 0xC0FFEE)
    var total = 0
    var writes = 0
    var answer: (id: String, number: Int, at: UInt64)?
    func step(_ now: UInt64) {
      if let due = answer, now >= due.at, let report = scheduler.answered(id: due.id) {
        total += report.arrived
        set.answered(due.number, total: total)
        answer = nil
      }
      guard let report = set.pending(), scheduler.decide(now: now) == .send else { return }
      let id = ids.next()
      scheduler.sent(report, id: id, now: now)
      answer = (id, set.sent(report), now + 1000)
      writes += 1
    }
    for index in 0..<10_000 {
      let now = UInt64(index) * 200
      set.add(Array("m\(index)".utf8), at: index)
      if index >= 300, (index - 300) % 3 == 0 { set.remove(Array("m\(index - 300)".utf8)) }
      step(now)
    }
    for now in stride(from: UInt64(2_000_000), through: 2_200_000, by: 1000) { step(now) }
    #expect(set.pending() == nil && scheduler.inFlight == nil)
    #expect(set.lastSent?.count == 10_000 - 3234)
    // The total grew by exactly the deliveries, in 40 writes and the last one after the burst.
    #expect(total == 10_000)
    #expect(writes == 41)
    #expect(set.covered(upto: total).count == 10_000 - 3234)
  }
}
