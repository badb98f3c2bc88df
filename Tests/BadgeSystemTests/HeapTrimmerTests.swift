import BadgeSystem
import Testing

/// The heap is trimmed once enough was released, a delay later, and not before.
@Suite struct HeapTrimmerTests {
  @Test func aTrimIsScheduledOnlyOnceTheThresholdIsReleasedAndRunsOnce() throws {
    let loop = try EventLoop()
    let heap = try HeapTrimmer(loop: loop, threshold: 1000, delay: 1000)
    heap.trimmed = { loop.exit(code: 7) }
    heap.released(999)
    #expect(!heap.isScheduled, "below the threshold: no timer")
    #expect(heap.pending == 999)
    heap.released(1)
    #expect(heap.isScheduled)
    heap.released(5000)
    #expect(heap.isScheduled, "one trim for the whole burst")
    #expect(try loop.runGuarded() == 7)
    #expect(heap.trims == 1)
    #expect(heap.pending == 0)
    #expect(!heap.isScheduled)
    heap.released(1000)
    #expect(heap.isScheduled, "the next burst's releases schedule the next trim")
  }
}
