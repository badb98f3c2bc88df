import BadgeCore
import BadgeMesh
import Testing

/// At most one publish per channel per interval; the latest state always goes out.
@Suite struct StateCoalescerTests {
  let mail = name("mail")
  let ci = name("ci")

  @Test func aSingleChangeGoesOutAtOnce() {
    var coalescer = StateCoalescer<Int>(interval: 50_000)
    let published1 = coalescer.offer(mail, 1, now: 1_000_000)
    #expect(published1 == 1)
    #expect(coalescer.nextDeadline == nil)
    // An interval later, the next one goes out at once too.
    let published2 = coalescer.offer(mail, 2, now: 1_050_000)
    #expect(published2 == 2)
  }

  @Test func aBurstGivesOnePublishPerIntervalAndEndsWithTheLatest() {
    var coalescer = StateCoalescer<Int>(interval: 50_000)
    var published: [Int] = []
    // 10,000 changes a second for 0.2 s: one every 100 µs.
    var now: UInt64 = 0
    for value in 1...2000 {
      if let due = coalescer.nextDeadline, due <= now { published += coalescer.due(now: now).map(\.1) }
      if let out = coalescer.offer(mail, value, now: now) { published.append(out) }
      now += 100
    }
    while let due = coalescer.nextDeadline { published += coalescer.due(now: due).map(\.1) }
    #expect(published.last == 2000)
    // 0.2 s at one per 50 ms: the first at once, then one per interval, then the last.
    #expect(published.count == 5, "\(published)")
    #expect(published == published.sorted())
  }

  @Test func channelsWaitEachOnItsOwn() {
    var coalescer = StateCoalescer<Int>(interval: 50_000)
    _ = coalescer.offer(mail, 1, now: 0)
    let published3 = coalescer.offer(mail, 2, now: 10_000)
    #expect(published3 == nil)
    let published4 = coalescer.offer(ci, 7, now: 20_000)
    #expect(published4 == 7)
    #expect(coalescer.isWaiting(mail) && !coalescer.isWaiting(ci))
    #expect(coalescer.nextDeadline == 50_000)
    let due1 = coalescer.due(now: 49_999)
    #expect(due1.isEmpty)
    let due2 = coalescer.due(now: 50_000)
    #expect(due2.map(\.1) == [2])
    coalescer.drop(mail)
    let published5 = coalescer.offer(mail, 3, now: 60_000)
    #expect(published5 == nil)
    coalescer.drop(mail)
    #expect(coalescer.nextDeadline == nil)
  }
}
