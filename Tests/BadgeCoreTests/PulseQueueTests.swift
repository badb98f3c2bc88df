@testable import BadgeCore
import Testing

@Suite struct PulseQueueTests {
  @Test func startsEmpty() {
    var queue = PulseQueue()
    #expect(queue.isEmpty)
    #expect(queue.earliest == nil)
    #expect(queue.popDue(at: UInt64.max) == nil)
  }

  @Test func earliestIsTheSmallestDeadline() {
    var queue = PulseQueue()
    queue.push(50, channel: 0)
    #expect(queue.earliest == 50)
    queue.push(70, channel: 1)
    #expect(queue.earliest == 50)
    queue.push(10, channel: 2)
    #expect(queue.earliest == 10)
    #expect(!queue.isEmpty)
  }

  @Test func popsOnlyWhatIsDue() {
    var queue = PulseQueue()
    queue.push(100, channel: 7)
    queue.push(200, channel: 8)
    #expect(queue.popDue(at: 99) == nil)
    let due = queue.popDue(at: 100)
    #expect(due?.deadline == 100)
    #expect(due?.channel == 7)
    #expect(queue.popDue(at: 199) == nil)
    #expect(queue.earliest == 200)
    #expect(queue.popDue(at: 1000)?.channel == 8)
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
    var queue = PulseQueue()
    for (channel, deadline) in deadlines.enumerated() { queue.push(deadline, channel: channel) }
    var popped: [(deadline: UInt64, channel: Int)] = []
    while let entry = queue.popDue(at: UInt64.max) { popped.append(entry) }
    #expect(popped.map(\.deadline) == deadlines.sorted())
    #expect(Set(popped.map(\.channel)) == Set(0..<count), "every entry comes out once")
    for entry in popped { #expect(deadlines[entry.channel] == entry.deadline) }
    #expect(queue.isEmpty)
  }

  @Test func interleavedPushesAndPopsStayOrdered() {
    var queue = PulseQueue()
    for deadline: UInt64 in [40, 10, 30] { queue.push(deadline, channel: Int(deadline)) }
    #expect(queue.popDue(at: 15)?.deadline == 10)
    queue.push(5, channel: 5)
    queue.push(35, channel: 35)
    var order: [UInt64] = []
    while let entry = queue.popDue(at: 100) { order.append(entry.deadline) }
    #expect(order == [5, 30, 35, 40])
  }

  @Test func removeAllEmptiesTheQueue() {
    var queue = PulseQueue()
    queue.push(1, channel: 0)
    queue.push(2, channel: 1)
    queue.removeAll()
    #expect(queue.isEmpty)
    #expect(queue.earliest == nil)
    queue.push(9, channel: 3)
    #expect(queue.popDue(at: 9)?.channel == 3)
  }

  @Test func theStoreSkipsStaleEntries() {
    // Lazy deletion: restarted and cut-short windows leave entries the store must pass over.
    let store = Store()
    apply(.increment(1), "a", on: store, at: 0)          // entry at 3 s
    apply(.increment(1), "a", on: store, at: 1_000_000)  // entry at 4 s; the 3 s one is stale
    apply(.increment(1), "b", on: store, at: 0)          // entry at 3 s
    apply(.set(0), "b", on: store, at: 500_000)          // cut short: stale
    #expect(store.nextPulseDeadline == 3_000_000, "stale entries stay queued")
    var ended: [String] = []
    store.expirePulses(now: 3_000_000) { ended.append($0.name.description) }
    #expect(ended.isEmpty)
    #expect(store.nextPulseDeadline == 4_000_000)
    store.expirePulses(now: 4_000_000) { ended.append($0.name.description) }
    #expect(ended == ["a"])
    #expect(store.nextPulseDeadline == nil)
  }
}
