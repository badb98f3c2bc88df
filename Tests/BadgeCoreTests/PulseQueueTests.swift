import BadgeConfig
import Testing

@testable import BadgeCore

@Suite struct PulseQueueTests {
  @Test func startsEmpty() {
    var queue = NamedPulseQueue()
    #expect(queue.isEmpty)
    #expect(queue.earliest == nil)
    #expect(queue.popDue(at: UInt64.max) == nil)
  }

  @Test func earliestIsTheSmallestDeadline() {
    var queue = NamedPulseQueue()
    queue.schedule(50, for: c(0))
    #expect(queue.earliest == 50)
    queue.schedule(70, for: c(1))
    #expect(queue.earliest == 50)
    queue.schedule(10, for: c(2))
    #expect(queue.earliest == 10)
    #expect(!queue.isEmpty)
  }

  /// 10,000 windows ending give their room back; a few keep theirs (no churn for a handful).
  @Test func anEmptiedQueueGivesBackALargeHeap() {
    var queue = NamedPulseQueue()
    for i in 0..<10_000 { queue.schedule(UInt64(i), for: c(i)) }
    #expect(queue.capacity >= 10_000)
    for i in 0..<9_999 { #expect(queue.popDue(at: UInt64.max)?.deadline == UInt64(i)) }
    #expect(queue.capacity >= 10_000, "room is kept while an entry is left")
    #expect(queue.popDue(at: UInt64.max)?.channel == c(9_999))
    #expect(queue.isEmpty)
    #expect(queue.capacity == 0)
    queue.schedule(5, for: c(1))
    #expect(queue.earliest == 5, "it still works after giving its room back")
    #expect(queue.popDue(at: 5)?.channel == c(1))
    for i in 0..<10 { queue.schedule(UInt64(i), for: c(i)) }
    let small = queue.capacity
    queue.removeAll()
    #expect(queue.capacity == small, "a small queue keeps its room")
    for i in 0..<10_000 { queue.schedule(UInt64(i), for: c(i)) }
    queue.removeAll()
    #expect(queue.capacity == 0)
  }

  @Test func popsOnlyWhatIsDue() {
    var queue = NamedPulseQueue()
    queue.schedule(100, for: c(7))
    queue.schedule(200, for: c(8))
    #expect(queue.popDue(at: 99) == nil)
    let due = queue.popDue(at: 100)
    #expect(due?.deadline == 100)
    #expect(due?.channel == c(7))
    #expect(queue.popDue(at: 199) == nil)
    #expect(queue.earliest == 200)
    #expect(queue.popDue(at: 1000)?.channel == c(8))
    #expect(queue.isEmpty)
  }

  @Test(arguments: [1, 2, 3, 7, 8, 64, 257])
  func popsEveryPermutationInOrder(_ count: Int) {
    // A fixed shuffle (a linear congruential walk) with repeated deadlines.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(count)
    var deadlines: [UInt64] = []
    for _ in 0..<count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      deadlines.append((state >> 33) % UInt64(max(1, count / 2)))
    }
    var queue = NamedPulseQueue()
    for (channel, deadline) in deadlines.enumerated() { queue.schedule(deadline, for: c(channel)) }
    var popped: [(deadline: UInt64, channel: ChannelName)] = []
    while let entry = queue.popDue(at: UInt64.max) { popped.append(entry) }
    #expect(popped.map(\.deadline) == deadlines.sorted())
    #expect(Set(popped.map(\.channel)) == Set((0..<count).map(c)), "every entry comes out once")
    for entry in popped { #expect(deadlines[Int(entry.channel.description.dropFirst())!] == entry.deadline) }
    #expect(queue.isEmpty)
  }

  @Test func interleavedPushesAndPopsStayOrdered() {
    var queue = NamedPulseQueue()
    for deadline: UInt64 in [40, 10, 30] { queue.schedule(deadline, for: c(Int(deadline))) }
    #expect(queue.popDue(at: 15)?.deadline == 10)
    queue.schedule(5, for: c(5))
    queue.schedule(35, for: c(35))
    var order: [UInt64] = []
    while let entry = queue.popDue(at: 100) { order.append(entry.deadline) }
    #expect(order == [5, 30, 35, 40])
  }

  @Test func removeAllEmptiesTheQueue() {
    var queue = NamedPulseQueue()
    queue.schedule(1, for: c(0))
    queue.schedule(2, for: c(1))
    queue.removeAll()
    #expect(queue.isEmpty)
    #expect(queue.earliest == nil)
    queue.schedule(9, for: c(3))
    #expect(queue.popDue(at: 9)?.channel == c(3))
  }

  @Test func rescheduleMovesTheOneEntryEitherWay() {
    var queue = NamedPulseQueue()
    for i in 0..<20 { queue.schedule(UInt64(100 + i), for: c(i)) }
    queue.schedule(500, for: c(0))  // later: sifts down
    queue.schedule(5, for: c(19))  // earlier (a shorter pulse_ms since): sifts up
    #expect(queue.count == 20)
    #expect(queue.deadline(of: c(0)) == 500)
    var order: [ChannelName] = []
    while let entry = queue.popDue(at: .max) { order.append(entry.channel) }
    #expect(order == [c(19)] + (1..<19).map(c) + [c(0)])
  }

  @Test func removeTakesOutOneEntryAndKeepsTheOrder() {
    var queue = NamedPulseQueue()
    for i in 0..<50 { queue.schedule(UInt64((i * 37) % 50), for: c(i)) }
    for i in stride(from: 0, to: 50, by: 3) { queue.remove(c(i)) }
    queue.remove(c(999))  // not queued: nothing happens
    var deadlines: [UInt64] = []
    while let entry = queue.popDue(at: .max) {
      #expect(Int(entry.channel.description.dropFirst())! % 3 != 0)
      deadlines.append(entry.deadline)
    }
    #expect(deadlines == deadlines.sorted())
    #expect(deadlines.count == 50 - 17)
  }

  @Test func theStoreQueuesOneEntryPerChannelWhateverTheRate() {
    // 100,000 increases of one channel under a one-hour pulse, then of 10 channels.
    var config = DaemonConfig()
    config.defaults.pulseMs = 3_600_000
    let store = Store(config: config.channels)
    for t in 0..<100_000 { apply(.write(.incr(1)), "a", on: store, at: UInt64(t)) }
    #expect(store.queuedPulseCount == 1)
    #expect(store.nextPulseDeadline == 99_999 + 3_600_000_000)
    for t in 0..<10_000 { apply(.write(.incr(1)), "c\(t % 10)", on: store, at: UInt64(t)) }
    #expect(store.queuedPulseCount == 11)
  }

  @Test func windowsCutShortOrRestartedLeaveNoEntryBehind() {
    let store = Store()
    apply(.write(.incr(1)), "a", on: store, at: 0)  // window to 3 s
    apply(.write(.incr(1)), "a", on: store, at: 1_000_000)  // moved to 4 s
    apply(.write(.incr(1)), "b", on: store, at: 0)  // window to 3 s
    apply(.write(.set(0)), "b", on: store, at: 500_000)  // cut short: removed
    #expect(store.queuedPulseCount == 1)
    #expect(store.nextPulseDeadline == 4_000_000)
    var ended: [String] = []
    store.expirePulses(now: 3_999_999) { ended.append($0.name.description) }
    #expect(ended.isEmpty)
    store.expirePulses(now: 4_000_000) { ended.append($0.name.description) }
    #expect(ended == ["a"])
    #expect(store.nextPulseDeadline == nil)
  }
}

/// The channel name `c<i>`.
private func c(_ i: Int) -> ChannelName { name("c\(i)") }

/// The store's queue, keyed by slot: an entry follows its channel to another slot.
@Suite struct SlotPulseQueueTests {
  @Test func rekeyingMovesTheEntryWithItsDeadline() {
    var queue = SlotPulseQueue()
    for slot in 0..<5 { queue.schedule(UInt64(10 * (slot + 1)), for: slot) }
    queue.remove(1)
    queue.rekey(4, to: 1)  // the last slot moved into the freed one
    #expect(queue.deadline(of: 1) == 50)
    #expect(queue.deadline(of: 4) == nil)
    queue.rekey(7, to: 8)  // not queued: nothing happens
    #expect(queue.deadline(of: 8) == nil)
    var order: [Int] = []
    while let entry = queue.popDue(at: .max) { order.append(entry.channel) }
    #expect(order == [0, 2, 3, 1])
  }

  @Test func slotsFarApartNeedNoEntriesBetween() {
    var queue = SlotPulseQueue()
    queue.schedule(5, for: 9_999)
    queue.schedule(3, for: 2)
    #expect(queue.deadline(of: 9_999) == 5)
    #expect(queue.deadline(of: 500) == nil)
    #expect(queue.deadline(of: 20_000) == nil)
    queue.remove(20_000)
    #expect(queue.popDue(at: 4)?.channel == 2)
    #expect(queue.popDue(at: 5)?.channel == 9_999)
    #expect(queue.isEmpty)
  }
}
