import BadgeSystem
import Testing

/// The heap is trimmed once enough was released, a delay later, and not before.
@Suite struct HeapTrimmerTests {
  @Test func aTrimIsScheduledOnlyOnceTheThresholdIsReleasedAndRunsOnce() throws {
    let heap = HeapTrimmer(threshold: 1000, delay: 1000)
    var scheduled: [UInt64] = []
    var trimmed = 0
    heap.schedule = { scheduled.append($0) }
    heap.trimmed = { trimmed += 1 }
    heap.released(999)
    #expect(!heap.isScheduled, "below the threshold: no trim")
    #expect(scheduled.isEmpty)
    #expect(heap.pending == 999)
    heap.released(1)
    #expect(heap.isScheduled)
    #expect(scheduled == [1000], "a delay later")
    heap.released(5000)
    #expect(scheduled == [1000], "one trim for the whole burst")
    heap.trim()
    #expect(heap.trims == 1)
    #expect(trimmed == 1)
    #expect(heap.pending == 0)
    #expect(!heap.isScheduled)
    heap.released(1000)
    #expect(heap.isScheduled, "the next burst's releases schedule the next trim")
    #expect(scheduled == [1000, 1000])
  }
}
