/// The ids of the requests saved last, at most `capacity` of them: what tells a retried request
/// from a new one. Past the capacity the oldest id is forgotten, so a retry is recognised as
/// long as fewer than `capacity` other ids were saved since its first try.
///
/// The ids lie in a ring, oldest first from `oldest`, and an index finds them: open addressing
/// with linear probing over 32-bit positions in the ring, at least twice as many slots as ids,
/// so a look-up touches one or two slots and one id. Forgetting the oldest id empties its slot
/// by shifting the entries after it back (no tombstones), so the index never needs rebuilding
/// but when it grows. At the capacity an id costs 24 bytes in the ring and at most 8 in the
/// index; both grow with the ids saved, so a table that is never used costs nothing.
public struct RequestIDTable: Sendable {
  /// Ids kept: a week of a laptop's clears and forwarded changes, several laptops over, arriving
  /// at once (docs/PROTOCOL.md, "Request ids"), in about 2 MB.
  public static let defaultCapacity = 65_536

  public let capacity: Int
  /// The ids in the order they were saved, from `oldest` round to the one before it.
  private var ring: [RequestID] = []
  /// Where the oldest id is in `ring` (0 until the ring is full).
  private var oldest = 0
  /// A position in `ring` plus one, or 0 for an empty slot; a power of two long.
  private var slots: [UInt32] = []

  /// What a table knows of an id.
  public enum Lookup: Equatable, Sendable {
    /// Not saved (never, or forgotten since).
    case unknown
    /// Saved with the same request: a retry.
    case repeated
    /// Saved with another request.
    case reused
  }

  public init(capacity: Int = RequestIDTable.defaultCapacity) {
    precondition(capacity >= 1 && capacity <= 1 << 30, "a capacity the index's positions can hold")
    self.capacity = capacity
  }

  /// The ids kept.
  public var count: Int { ring.count }

  /// The ids kept, oldest first: what a snapshot writes and recovery saves again in order.
  public var inOrder: [RequestID] { Array(ring[oldest...] + ring[..<oldest]) }

  /// Whether `id`'s token is saved, and with which request.
  public func lookup(_ id: RequestID) -> Lookup {
    guard let position = position(of: id) else { return .unknown }
    return ring[position].fingerprint == id.fingerprint ? .repeated : .reused
  }

  /// Saves `id`, whose token is not saved, as the newest.
  ///
  /// - Returns: the oldest id, forgotten to make room, when the table was full.
  @discardableResult
  public mutating func insert(_ id: RequestID) -> RequestID? {
    assert(position(of: id) == nil, "a token is saved once")
    guard ring.count == capacity else {
      if ring.count == ring.capacity { ring.reserveCapacity(min(capacity, max(16, ring.count * 2))) }
      ring.append(id)
      if slots.count < 2 * ring.count { growIndex() } else { index(ring.count - 1) }
      return nil
    }
    let forgotten = ring[oldest]
    unindex(oldest)
    ring[oldest] = id
    index(oldest)
    oldest = oldest + 1 == capacity ? 0 : oldest + 1
    return forgotten
  }

  /// Takes back the newest `insert`, putting back the id it forgot (`forgotten`, its result).
  public mutating func removeNewest(restoring forgotten: RequestID?) {
    guard let forgotten else {
      unindex(ring.count - 1)
      ring.removeLast()
      return
    }
    let newest = oldest == 0 ? capacity - 1 : oldest - 1
    unindex(newest)
    ring[newest] = forgotten
    index(newest)
    oldest = newest
  }

  // MARK: - The index

  private var mask: Int { slots.count - 1 }

  /// The slot where `id`'s probe starts. The token's hash is FNV's, whose low bits mix poorly;
  /// a multiplication by 2^64 / φ spreads both halves over the top bits, which are taken.
  @inline(__always)
  private func home(_ id: RequestID) -> Int {
    Int(truncatingIfNeeded: ((id.high ^ id.low) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// Where `id`'s token is in `ring`, if it is saved.
  private func position(of id: RequestID) -> Int? {
    guard !slots.isEmpty else { return nil }
    var slot = home(id)
    while slots[slot] != 0 {
      let position = Int(slots[slot]) - 1
      if ring[position].sameToken(as: id) { return position }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Puts `ring[position]` in the first free slot of its probe.
  private mutating func index(_ position: Int) {
    var slot = home(ring[position])
    while slots[slot] != 0 { slot = (slot + 1) & mask }
    slots[slot] = UInt32(position + 1)
  }

  /// Empties the slot of `ring[position]`, shifting back each later entry of the run whose
  /// probe starts at or before the hole, so every probe still finds its id.
  private mutating func unindex(_ position: Int) {
    var hole = home(ring[position])
    while Int(slots[hole]) != position + 1 { hole = (hole + 1) & mask }
    var next = (hole + 1) & mask
    while slots[next] != 0 {
      let start = home(ring[Int(slots[next]) - 1])
      if (next - start) & mask >= (next - hole) & mask {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = 0
  }

  /// Doubles the index (16 slots at first) and puts every id in it again.
  private mutating func growIndex() {
    slots = Array(repeating: 0, count: max(16, slots.count * 2))
    for position in ring.indices { index(position) }
  }
}

extension RequestIDTable: Equatable {
  /// Two tables are equal when they keep the same ids in the same order, whatever their slots.
  public static func == (a: RequestIDTable, b: RequestIDTable) -> Bool {
    a.capacity == b.capacity && a.inOrder == b.inOrder
  }
}
