import BadgeSources
import Testing

/// `ItemSet`: the (n, k, u) of each write, arrival totals, renames, listings merged in, and
/// the items a watermark covers.
@Suite struct ItemSetTests {
  typealias Set = ItemSet<String>
  typealias Report = Set.Report

  static func id(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// The identities of `items`, in byte order.
  static func sorted(_ items: [([UInt8], String)]) -> [[UInt8]] {
    items.map(\.0).sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Sends what is pending and answers it with `total`.
  static func write(_ set: inout Set, total: Int) -> Report? {
    guard let report = set.pending() else { return nil }
    set.answered(set.sent(report), total: total)
    return report
  }

  @Test func theFirstWriteCountsWhatTheDaemonLacks() {
    var set = Set(daemonCount: 4)
    for name in ["a", "b", "c", "d", "e"] { set.add(Self.id(name), at: "new") }
    #expect(set.pending() == Report(count: 5, arrived: 1, unseen: nil))
    #expect(Self.write(&set, total: 141) == Report(count: 5, arrived: 1, unseen: nil))
    #expect(set.pending() == nil)
    // Every item got the first answer's total.
    #expect(Self.sorted(set.covered(upto: 141)) == ["a", "b", "c", "d", "e"].map(Self.id))
    #expect(set.covered(upto: 140).isEmpty)
    var fewer = Set(daemonCount: 9)
    fewer.add(Self.id("a"), at: "cur")
    #expect(fewer.pending() == Report(count: 1, arrived: 0, unseen: nil))
  }

  @Test func newItemsAndReadOnesInOneTurn() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("a"), at: "new")
    set.add(Self.id("b"), at: "new")
    #expect(Self.write(&set, total: 2) == Report(count: 2, arrived: 2, unseen: nil))
    set.remove(Self.id("a"))
    set.add(Self.id("c"), at: "new")
    #expect(Self.write(&set, total: 3) == Report(count: 2, arrived: 1, unseen: nil))
    set.remove(Self.id("b"))
    #expect(Self.write(&set, total: 3) == Report(count: 1, arrived: 0, unseen: nil))
    #expect(set.covered(upto: 3).map(\.0) == [Self.id("c")])
    #expect(set.covered(upto: 2).isEmpty)
  }

  @Test func aRenameIsNoArrival() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("x"), at: "new/x")
    _ = Self.write(&set, total: 10)
    // new/x → cur/x:2,F: out, then in, before the next write.
    set.remove(Self.id("x"))
    set.add(Self.id("x"), at: "cur/x:2,F")
    #expect(set.pending() == nil)
    #expect(set.covered(upto: 10).map(\.1) == ["cur/x:2,F"])
    // Marked read, then unread again after a write: new to the count.
    set.remove(Self.id("x"))
    #expect(Self.write(&set, total: 10) == Report(count: 0, arrived: 0, unseen: nil))
    set.add(Self.id("x"), at: "cur/x:2,")
    #expect(Self.write(&set, total: 11) == Report(count: 1, arrived: 1, unseen: nil))
    #expect(set.covered(upto: 10).isEmpty)
  }

  @Test func setSemantics() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("a"), at: "1")
    set.add(Self.id("a"), at: "2")
    set.remove(Self.id("nothing"))
    #expect(set.count == 1 && set.items[Self.id("a")]?.place == "2")
    // An item never written leaves no trace.
    set.remove(Self.id("a"))
    set.add(Self.id("a"), at: "3")
    #expect(set.pending() == Report(count: 1, arrived: 1, unseen: nil))
  }

  @Test func theBaseIsTheLastWriteSent() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("a"), at: "new")
    let first = set.sent(set.pending()!)
    // While it is on its way, b arrives: the next write counts b only.
    set.add(Self.id("b"), at: "new")
    #expect(set.pending() == Report(count: 2, arrived: 1, unseen: nil))
    set.answered(first, total: 5)
    let second = set.sent(set.pending()!)
    set.answered(second, total: 6)
    #expect(set.items[Self.id("a")]?.arrival == 5)
    #expect(set.items[Self.id("b")]?.arrival == 6)
    #expect(set.lastSent == Report(count: 2, arrived: 1, unseen: nil))
  }

  @Test func anItemReadWhileItsWriteIsOnItsWay() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("a"), at: "new")
    set.add(Self.id("b"), at: "new")
    let first = set.sent(set.pending()!)
    set.remove(Self.id("a"))
    let second = set.sent(set.pending()!)
    set.answered(first, total: 2)
    set.answered(second, total: 2)
    #expect(set.items.keys.map { $0 } == [Self.id("b")])
    #expect(set.items[Self.id("b")]?.arrival == 2)
    #expect(set.lastSent == Report(count: 1, arrived: 0, unseen: nil))
  }

  @Test func unseenAfterAWatermark() {
    var set = Set(daemonCount: 0)
    set.add(Self.id("a"), at: "new")
    set.add(Self.id("b"), at: "new")
    _ = Self.write(&set, total: 2)
    set.seen(upto: 2)
    #expect(set.pending() == Report(count: 2, arrived: 0, unseen: 0))
    _ = Self.write(&set, total: 2)
    set.add(Self.id("c"), at: "new")
    #expect(Self.write(&set, total: 3) == Report(count: 3, arrived: 1, unseen: 1))
    // c read elsewhere: the source knows it was unseen.
    set.remove(Self.id("c"))
    #expect(Self.write(&set, total: 3) == Report(count: 2, arrived: 0, unseen: 0))
    // An older watermark heard late changes nothing.
    set.seen(upto: 1)
    #expect(set.seenUpto == 2)
  }

  @Test func aListingMergedIn() {
    var set = Set(daemonCount: 0)
    for (name, place) in [("a", "INBOX"), ("b", "INBOX"), ("s", "Sent")] { set.add(Self.id(name), at: place) }
    _ = Self.write(&set, total: 3)
    set.merge([(Self.id("b"), "INBOX"), (Self.id("c"), "INBOX")], covering: { $0 == "INBOX" })
    #expect(set.items.keys.sorted { $0.lexicographicallyPrecedes($1) } == ["b", "c", "s"].map(Self.id))
    #expect(Self.write(&set, total: 4) == Report(count: 3, arrived: 1, unseen: nil))
    #expect(Self.sorted(set.covered(upto: 3)) == ["b", "s"].map(Self.id))
  }

  @Test func aHundredThousandItems() {
    var set = ItemSet<Int>(daemonCount: 0)
    for index in 0..<100_000 { set.add(Array("1764620000.M\(index)P1.mail".utf8), at: index) }
    #expect(Self.writeInts(&set, total: 100_000) == ItemSet<Int>.Report(count: 100_000, arrived: 100_000, unseen: nil))
    set.add(Array("one more".utf8), at: -1)
    #expect(Self.writeInts(&set, total: 100_001) == ItemSet<Int>.Report(count: 100_001, arrived: 1, unseen: nil))
    #expect(set.covered(upto: 100_000).count == 100_000)
  }

  static func writeInts(_ set: inout ItemSet<Int>, total: Int) -> ItemSet<Int>.Report? {
    guard let report = set.pending() else { return nil }
    set.answered(set.sent(report), total: total)
    return report
  }

  /// `u` is kept as items come, go, get their arrivals and watermarks come: after every step of
  /// a random run it equals the items with no arrival or one past the last watermark.
  @Test func unseenKeptThroughEveryChange() {
    var set = Set(daemonCount: 0)
    var generator = SystemRandomNumberGenerator()
    var total = 0
    for _ in 0..<5000 {
      let identity = Self.id(String(Int.random(in: 0..<40, using: &generator)))
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<4: set.add(identity, at: "new")
      case 4..<6: set.remove(identity)
      case 6..<8:
        guard let report = set.pending() else { break }
        total += report.arrived
        set.answered(set.sent(report), total: total)
      case 8: set.seen(upto: Int.random(in: max(0, total - 5)...total, using: &generator))
      default: _ = set.sent(set.pending() ?? Report(count: set.count, arrived: 0, unseen: nil))
      }
      guard let upto = set.seenUpto else { continue }
      let expected = set.items.values.count { $0.arrival.map { $0 > upto } ?? true }
      #expect(set.pending().map { $0.unseen == expected } ?? true, "u after a change")
    }
  }
}
