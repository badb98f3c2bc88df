/// A min-heap of pulse deadlines with at most one entry per channel, so that the daemon arms
/// one timer for the earliest window end however many channels pulse, and its memory follows
/// the number of pulsing channels, not the rate of increases. The store keys it by the
/// channel's slot in its table (`SlotPositions`); `HookScheduler` keeps the ends of channels'
/// `hook_interval_ms` in one keyed by name (`NamedPulseQueue`), since a waiting hook outlives
/// its channel's slot; the daemon keeps every deadline of its server in one keyed by the
/// deadline's slot in its table (`Deadlines`).
///
/// Restarting a window moves the channel's entry (up or down: `pulse_ms` may have changed in
/// between); ending one early removes it. A position index makes both O(log n). Inlinable, so
/// that a module that keeps one (the daemon's `Deadlines`) runs it specialized to its keys.
public struct PulseQueue<Positions: PulsePositions>: Sendable {
  public typealias Key = Positions.Key
  @usableFromInline var heap: [(deadline: UInt64, channel: Key)] = []
  /// Where each channel's entry is in `heap`.
  @usableFromInline var position = Positions()

  @inlinable public init() {}

  @inlinable public var earliest: UInt64? { heap.first?.deadline }
  @inlinable public var isEmpty: Bool { heap.isEmpty }
  /// The number of entries, which is the number of channels with a window queued.
  @inlinable public var count: Int { heap.count }

  /// When `channel`'s window ends, if it is queued.
  @inlinable public func deadline(of channel: Key) -> UInt64? {
    position[channel].map { heap[$0].deadline }
  }

  @inlinable public mutating func removeAll() {
    if heap.capacity <= Self.keptCapacity {
      heap.removeAll(keepingCapacity: true)
      position.removeAll(keepingCapacity: true)
    } else {
      heap = []
      position = Positions()
    }
  }

  /// Queues `channel`'s window end at `deadline`, replacing any entry it had.
  @inlinable public mutating func schedule(_ deadline: UInt64, for channel: Key) {
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
  @usableFromInline static var keptCapacity: Int { 64 }

  /// The entries the queue has room for without growing (for tests).
  var capacity: Int { heap.capacity }

  /// Drops `channel`'s entry, if it has one (its window ended early).
  @inlinable public mutating func remove(_ channel: Key) {
    guard let i = position[channel] else { return }
    position[channel] = nil
    let last = heap.removeLast()
    if heap.isEmpty {
      removeAll()
      return
    }
    guard i < heap.count else { return }
    heap[i] = last
    position[last.channel] = i
    siftUp(i)
    siftDown(position[last.channel]!)
  }

  /// The entry of `old` now belongs to `new`, which has none: the channel that had `old` is
  /// kept under `new` from now on (the store moved it to another slot). Its deadline and place
  /// in the heap stay.
  public mutating func rekey(_ old: Key, to new: Key) {
    guard let i = position[old] else { return }
    position[old] = nil
    heap[i].channel = new
    position[new] = i
  }

  /// Removes and returns the earliest entry if it is due at `now`.
  @inlinable public mutating func popDue(at now: UInt64) -> (deadline: UInt64, channel: Key)? {
    guard let first = heap.first, first.deadline <= now else { return nil }
    remove(first.channel)
    return first
  }

  @inlinable mutating func siftUp(_ start: Int) {
    var i = start
    while i > 0 {
      let parent = (i - 1) / 2
      guard heap[parent].deadline > heap[i].deadline else { break }
      swapEntries(parent, i)
      i = parent
    }
  }

  @inlinable mutating func siftDown(_ start: Int) {
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

  @inlinable mutating func swapEntries(_ a: Int, _ b: Int) {
    heap.swapAt(a, b)
    position[heap[a].channel] = a
    position[heap[b].channel] = b
  }
}

/// A pulse queue keyed by channel name: `HookScheduler`'s interval ends.
public typealias NamedPulseQueue = PulseQueue<[ChannelName: Int]>

/// A pulse queue keyed by the channel's slot in the store's table: the store's windows.
typealias SlotPulseQueue = PulseQueue<SlotPositions>

/// Where each key's entry is in a `PulseQueue`'s heap.
public protocol PulsePositions: Sendable {
  associatedtype Key: Sendable
  init()
  subscript(key: Key) -> Int? { get set }
  mutating func removeAll(keepingCapacity: Bool)
}

extension Dictionary: PulsePositions where Value == Int {}

/// Heap positions by slot: an array with one place per slot up to the highest slot queued, so
/// that an entry costs no name and a look-up no hash.
public struct SlotPositions: PulsePositions {
  /// The position of slot `i`'s entry plus one; 0 for none.
  @usableFromInline var places: [UInt32] = []

  @inlinable public init() {}

  @inlinable public subscript(slot: Int) -> Int? {
    get {
      guard slot < places.count, places[slot] != 0 else { return nil }
      return Int(places[slot]) - 1
    }
    set {
      if slot >= places.count {
        guard newValue != nil else { return }
        places.append(contentsOf: repeatElement(0, count: slot + 1 - places.count))
      }
      places[slot] = newValue.map { UInt32($0 + 1) } ?? 0
    }
  }

  @inlinable public mutating func removeAll(keepingCapacity: Bool) {
    places.removeAll(keepingCapacity: keepingCapacity)
  }
}
