/// Where each channel is in the store's table, by name: an open-addressing hash set of slot
/// numbers (linear probing, at most three quarters full), which keeps no name of its own. A
/// bucket holds a slot and the low 32 bits of its name's hash; a look-up compares names only
/// where those bits match, through the table (`matches`), so the name is stored once, in the
/// channel. 8 bytes a bucket where a dictionary keyed by the 72-byte inline name took 80.
///
/// The caller passes each name's hash (`hashValue`, seeded per process, so that names a client
/// picks cannot be made to collide) and keeps the buckets true as slots move
/// (`insert`, `remove`, `move`).
struct ChannelIndex {
  /// 0 for an empty bucket; otherwise the slot plus one in the high 32 bits, the hash's low 32
  /// bits in the low ones. A power of two long, or empty.
  private var buckets: [UInt64] = []
  /// The number of slots indexed.
  private(set) var count = 0

  /// The slot whose channel `matches`, among those whose name hashes to `hash`.
  @inline(__always)
  func slot(hash: Int, where matches: (Int) -> Bool) -> Int? {
    guard !buckets.isEmpty else { return nil }
    let mask = buckets.count - 1
    let tag = UInt32(truncatingIfNeeded: hash)
    var i = Int(tag) & mask
    while true {
      let bucket = buckets[i]
      if bucket == 0 { return nil }
      if UInt32(truncatingIfNeeded: bucket) == tag {
        let slot = Int(bucket >> 32) - 1
        if matches(slot) { return slot }
      }
      i = (i + 1) & mask
    }
  }

  /// Indexes `slot`, whose name hashes to `hash` (it is not indexed yet).
  mutating func insert(_ slot: Int, hash: Int) {
    if (count + 1) * 4 > buckets.count * 3 { grow() }
    place(ChannelIndex.bucket(slot, UInt32(truncatingIfNeeded: hash)))
    count += 1
  }

  /// Drops `slot`, whose name hashes to `hash`. The buckets after it that probed past it move
  /// back (backward-shift deletion), so no tombstone is left and look-ups stay short.
  mutating func remove(_ slot: Int, hash: Int) {
    guard var hole = bucketIndex(of: slot, hash: hash) else { return }
    let mask = buckets.count - 1
    var next = (hole + 1) & mask
    while buckets[next] != 0 {
      let home = Int(UInt32(truncatingIfNeeded: buckets[next])) & mask
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !staysPut {
        buckets[hole] = buckets[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    buckets[hole] = 0
    count -= 1
  }

  /// The channel at `old`, whose name hashes to `hash`, is now at `new`.
  mutating func move(_ old: Int, to new: Int, hash: Int) {
    guard let i = bucketIndex(of: old, hash: hash) else { return }
    buckets[i] = ChannelIndex.bucket(new, UInt32(truncatingIfNeeded: hash))
  }

  /// The number of buckets (for tests of the growth).
  var bucketCount: Int { buckets.count }

  private func bucketIndex(of slot: Int, hash: Int) -> Int? {
    guard !buckets.isEmpty else { return nil }
    let mask = buckets.count - 1
    let wanted = ChannelIndex.bucket(slot, UInt32(truncatingIfNeeded: hash))
    var i = Int(UInt32(truncatingIfNeeded: hash)) & mask
    while buckets[i] != 0 {
      if buckets[i] == wanted { return i }
      i = (i + 1) & mask
    }
    return nil
  }

  private static func bucket(_ slot: Int, _ tag: UInt32) -> UInt64 {
    UInt64(slot + 1) << 32 | UInt64(tag)
  }

  /// Puts `bucket` in the first empty place from its home.
  private mutating func place(_ bucket: UInt64) {
    let mask = buckets.count - 1
    var i = Int(UInt32(truncatingIfNeeded: bucket)) & mask
    while buckets[i] != 0 { i = (i + 1) & mask }
    buckets[i] = bucket
  }

  /// Doubles the buckets (16 at first) and places every entry again from its hash bits.
  private mutating func grow() {
    let old = buckets
    buckets = Array(repeating: 0, count: max(16, old.count * 2))
    for bucket in old where bucket != 0 { place(bucket) }
  }
}
