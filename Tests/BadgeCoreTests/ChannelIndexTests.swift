import Testing

@testable import BadgeCore

/// `ChannelIndex`: slots found by hash through the caller's comparison, kept true through
/// inserts, removals (backward shifts) and moves, with hashes chosen to collide and wrap.
@Suite struct ChannelIndexTests {
  /// Finds `slot` as the store does: among the buckets of `hash`, the one the table says is it.
  static func find(_ index: ChannelIndex, _ slot: Int, hash: Int) -> Int? {
    index.slot(hash: hash) { $0 == slot }
  }

  @Test func anEmptyIndexFindsNothing() {
    let index = ChannelIndex()
    #expect(Self.find(index, 0, hash: 0) == nil)
    #expect(index.bucketCount == 0)
  }

  @Test func itGrowsPastThreeQuartersFull() {
    var index = ChannelIndex()
    for slot in 0..<12 { index.insert(slot, hash: slot &* 0x9E37_79B9) }
    #expect(index.bucketCount == 16)
    index.insert(12, hash: 12 &* 0x9E37_79B9)
    #expect(index.bucketCount == 32)
    for slot in 0..<13 { #expect(Self.find(index, slot, hash: slot &* 0x9E37_79B9) == slot) }
    #expect(index.count == 13)
  }

  /// Only the hash's low 32 bits place a slot and tell it apart before the comparison.
  @Test func theComparisonDecidesBetweenEqualHashes() {
    var index = ChannelIndex()
    index.insert(4, hash: 7)
    index.insert(9, hash: 7 | (1 << 40))
    #expect(index.slot(hash: 7) { $0 == 9 } == 9)
    #expect(index.slot(hash: 7) { $0 == 4 } == 4)
    #expect(index.slot(hash: 7) { _ in false } == nil)
    #expect(index.slot(hash: 8) { _ in true } == nil)
  }

  /// Random inserts, removals and moves, as the store makes them (a new slot at the end; a
  /// removal moving the last slot into the freed one), against a plain model, with a few
  /// hashes for many slots so that runs of collisions cross the end of the buckets.
  @Test(arguments: [1, 3, 16, 1000])
  func randomChangesAgreeWithAModel(distinctHashes: Int) {
    var index = ChannelIndex()
    var hashes: [Int] = []  // by slot, as the store's table holds names
    var gone: [(slot: Int, hash: Int)] = []
    var state: UInt64 = 42 &* UInt64(distinctHashes)
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for step in 0..<3000 {
      if hashes.isEmpty || next(3) > 0 {
        // Hashes near the top of 32 bits too, whose home is the last buckets.
        let hash = next(2) == 0 ? next(distinctHashes) : Int(UInt32.max) - next(distinctHashes)
        index.insert(hashes.count, hash: hash)
        hashes.append(hash)
      } else {
        let slot = next(hashes.count)
        index.remove(slot, hash: hashes[slot])
        gone.append((slot, hashes[slot]))
        let last = hashes.count - 1
        if slot < last {
          index.move(last, to: slot, hash: hashes[last])
          hashes[slot] = hashes[last]
        }
        hashes.removeLast()
      }
      guard step % 50 == 0 else { continue }
      #expect(index.count == hashes.count)
      for (slot, hash) in hashes.enumerated() where Self.find(index, slot, hash: hash) != slot {
        Issue.record("step \(step): slot \(slot) not found")
      }
      for (slot, hash) in gone where slot >= hashes.count && Self.find(index, slot, hash: hash) != nil {
        Issue.record("step \(step): removed slot \(slot) still found")
      }
    }
  }
}
