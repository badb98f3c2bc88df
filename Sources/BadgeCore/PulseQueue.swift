/// A min-heap of pulse deadlines with at most one entry per channel, so that the daemon arms
/// one timer for the earliest window end however many channels pulse, and its memory follows
/// the number of pulsing channels, not the rate of increases. `HookScheduler` keeps the ends
/// of channels' `hook_interval_ms` in one too, for the same reasons.
///
/// Restarting a window moves the channel's entry (up or down: `pulse_ms` may have changed in
/// between); ending one early removes it. A position index makes both O(log n).
struct PulseQueue {
  private var heap: [(deadline: UInt64, channel: ChannelName)] = []
  /// Where each channel's entry is in `heap`.
  private var position: [ChannelName: Int] = [:]

  var earliest: UInt64? { heap.first?.deadline }
  var isEmpty: Bool { heap.isEmpty }
  /// The number of entries, which is the number of channels with a window queued.
  var count: Int { heap.count }

  /// When `channel`'s window ends, if it is queued.
  func deadline(of channel: ChannelName) -> UInt64? {
    position[channel].map { heap[$0].deadline }
  }

  mutating func removeAll() {
    let keep = heap.capacity <= PulseQueue.keptCapacity
    heap.removeAll(keepingCapacity: keep)
    position.removeAll(keepingCapacity: keep)
  }

  /// Queues `channel`'s window end at `deadline`, replacing any entry it had.
  mutating func schedule(_ deadline: UInt64, for channel: ChannelName) {
    if let i = position[channel] {
      let earlier = deadline < heap[i].deadline
      heap[i].deadline = deadline
      if earlier { siftUp(i) } else { siftDown(i) }
    } else {
      heap.append((deadline, channel))
      position[channel] = heap.count - 1
      siftUp(heap.count - 1)
    }
  }

  /// Room the queue keeps once it is empty: more is given back, so that the heap and index a
  /// burst of many channels pulsing at once grew are not held after their windows end.
  static let keptCapacity = 64

  /// The entries the queue has room for without growing (for tests).
  var capacity: Int { heap.capacity }

  /// Drops `channel`'s entry, if it has one (its window ended early).
  mutating func remove(_ channel: ChannelName) {
    guard let i = position.removeValue(forKey: channel) else { return }
    let last = heap.removeLast()
    if heap.isEmpty && heap.capacity > PulseQueue.keptCapacity {
      heap = []
      position = [:]
      return
    }
    guard i < heap.count else { return }
    heap[i] = last
    position[last.channel] = i
    siftUp(i)
    siftDown(position[last.channel]!)
  }

  /// Removes and returns the earliest entry if it is due at `now`.
  mutating func popDue(at now: UInt64) -> (deadline: UInt64, channel: ChannelName)? {
    guard let first = heap.first, first.deadline <= now else { return nil }
    remove(first.channel)
    return first
  }

  private mutating func siftUp(_ start: Int) {
    var i = start
    while i > 0 {
      let parent = (i - 1) / 2
      guard heap[parent].deadline > heap[i].deadline else { break }
      swapEntries(parent, i)
      i = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var i = start
    while true {
      let l = 2 * i + 1
      let r = l + 1
      var m = i
      if l < heap.count, heap[l].deadline < heap[m].deadline { m = l }
      if r < heap.count, heap[r].deadline < heap[m].deadline { m = r }
      if m == i { return }
      swapEntries(i, m)
      i = m
    }
  }

  private mutating func swapEntries(_ a: Int, _ b: Int) {
    heap.swapAt(a, b)
    position[heap[a].channel] = a
    position[heap[b].channel] = b
  }
}
