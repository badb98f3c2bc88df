/// A min-heap of pulse deadlines, so that the daemon arms one timer for the earliest window end
/// however many channels pulse.
///
/// Entries are never removed when a window is cut short or restarted; a popped entry counts only
/// if the channel's `pulseUntil` still equals its deadline (lazy deletion).
struct PulseQueue {
  private var heap: [(deadline: UInt64, channel: Int)] = []

  var earliest: UInt64? { heap.first?.deadline }
  var isEmpty: Bool { heap.isEmpty }

  mutating func removeAll() { heap.removeAll(keepingCapacity: true) }

  mutating func push(_ deadline: UInt64, channel: Int) {
    heap.append((deadline, channel))
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard heap[parent].deadline > heap[i].deadline else { break }
      heap.swapAt(parent, i)
      i = parent
    }
  }

  /// Removes and returns the earliest entry if it is due at `now`.
  mutating func popDue(at now: UInt64) -> (deadline: UInt64, channel: Int)? {
    guard let first = heap.first, first.deadline <= now else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var i = 0
      while true {
        let l = 2 * i + 1
        let r = l + 1
        var m = i
        if l < heap.count, heap[l].deadline < heap[m].deadline { m = l }
        if r < heap.count, heap[r].deadline < heap[m].deadline { m = r }
        if m == i { break }
        heap.swapAt(i, m)
        i = m
      }
    }
    return first
  }
}
