/// One channel's items as its source knows them, and what to tell the daemon about them.
///
/// An item is an identity (a Maildir unique part, a notmuch message id, a file's relative name,
/// as bytes) with its place (where it lives, to mark it read) and its *arrival total*: the
/// channel's `total` in the daemon's reply to the write that first reported it, so that a
/// click's watermark (`upto=`) says exactly which items the badge showed.
///
/// A write says `(n, k, u)`: `n` items, `k` of them new since the last write (identities not in
/// the set then), `u` of them unseen. The choices the design left open, made here:
/// - The base a write is measured from is the last write *sent*, not the last answered: one
///   write is in flight per channel (`WriteScheduler`), and a write that got no answer is sent
///   again unchanged with its request id, so it counts once whatever happened to the first.
/// - An item that leaves and comes back before the next write (a flag change is a rename, its
///   old name out and its new name in) keeps its arrival and is not new. One that left in an
///   earlier write and comes back (marked unread again) is new, as it is new to the count.
/// - An item that comes and goes between two writes is neither counted nor an arrival: the
///   badge never showed it, so `k ≤ n` always, as the daemon's `rise = max(k, n − count)`
///   expects.
/// - Until the first write is sent there is no earlier knowledge: that write's `k` is
///   `max(0, n − the daemon's count)` (what the claim's reply said), and every item gets its
///   total.
/// - `u` is the items not yet reported or reported after the last watermark the source heard
///   of (`seen(upto:)`); without one it is left out (`nil`), and the daemon keeps its own.
public struct ItemSet<Place: Hashable & Sendable>: Sendable {
  public typealias Identity = [UInt8]

  /// One item.
  public struct Item: Hashable, Sendable {
    public var place: Place
    /// The total of the reply to the write that first reported it; `nil` until then.
    public var arrival: Int?
    /// The write that first reported it (`nil`: not yet written).
    var reportedIn: Int?
  }

  /// What one write says.
  public struct Report: Hashable, Sendable {
    /// The count.
    public var count: Int
    /// The new items among them.
    public var arrived: Int
    /// The unseen ones, when known.
    public var unseen: Int?

    public init(count: Int, arrived: Int, unseen: Int?) {
      self.count = count
      self.arrived = arrived
      self.unseen = unseen
    }
  }

  public private(set) var items: [Identity: Item] = [:]
  /// Items reported and then gone since the last write: a rename's old name before its new.
  private var departed: [Identity: Item] = [:]
  /// The daemon's count when there is no earlier knowledge (before the first write).
  private var daemonCount: Int?
  /// The items no write reported yet, so that a write touches only those (a recount of a
  /// 100,000-message folder is followed by writes of a few items each).
  private var unreported: Swift.Set<Identity> = []
  /// The items each write on its way reported, by the write's number, for its answer.
  private var awaiting: [Int: [Identity]] = [:]
  /// The last write sent and its number.
  public private(set) var lastSent: Report?
  private var writes = 0
  /// The last watermark heard of.
  public private(set) var seenUpto: Int?
  /// How many items `isUnseen`: kept by `put`, counted anew only when a watermark comes.
  private var unseenCount = 0

  /// A set with nothing known yet; `daemonCount` is the channel's count in the daemon.
  public init(daemonCount: Int) { self.daemonCount = daemonCount }

  public var count: Int { items.count }

  /// An item appeared (set semantics: a known identity only moves).
  public mutating func add(_ identity: Identity, at place: Place) {
    if var item = items[identity] {
      item.place = place
      items[identity] = item
    } else if var item = departed.removeValue(forKey: identity) {
      item.place = place
      put(item, at: identity)
    } else {
      put(Item(place: place, arrival: nil, reportedIn: nil), at: identity)
      unreported.insert(identity)
    }
  }

  /// An item went (set semantics: an unknown identity is nothing).
  public mutating func remove(_ identity: Identity) {
    guard let item = put(nil, at: identity) else { return }
    if item.reportedIn != nil { departed[identity] = item } else { unreported.remove(identity) }
  }

  /// A listing of the places `covers` says it covers, merged in: items it holds are added,
  /// items in those places it lacks are removed, others stay.
  public mutating func merge(_ listing: [(Identity, Place)], covering covers: (Place) -> Bool) {
    let listed = Swift.Set(listing.map(\.0))
    let gone = items.filter { covers($0.value.place) && !listed.contains($0.key) }.keys
    for identity in gone { remove(identity) }
    for (identity, place) in listing { add(identity, at: place) }
  }

  /// What to write now; `nil` when the daemon already has it.
  public func pending() -> Report? {
    let arrived: Int
    if let daemonCount {
      arrived = max(0, items.count - daemonCount)
    } else {
      arrived = unreported.count
    }
    let report = Report(count: items.count, arrived: arrived, unseen: unseen)
    if let lastSent, report.arrived == 0, report.count == lastSent.count, report.unseen == lastSent.unseen {
      return nil
    }
    return report
  }

  /// `u`: items not reported yet or reported after the watermark.
  private var unseen: Int? { seenUpto == nil ? nil : unseenCount }

  /// Whether `item` is one of `u`: no arrival yet, or one after the last watermark.
  private func isUnseen(_ item: Item) -> Bool { item.arrival.map { $0 > seenUpto ?? Int.min } ?? true }

  /// Puts `item` under `identity` (`nil` removes it) and keeps `unseenCount` true; returns the
  /// item that was there. Every change of an item's arrival, and every item in or out, comes
  /// through here, so a write's `u` costs nothing however many items there are.
  @discardableResult
  private mutating func put(_ item: Item?, at identity: Identity) -> Item? {
    let old = item.map { items.updateValue($0, forKey: identity) } ?? items.removeValue(forKey: identity)
    if let old, isUnseen(old) { unseenCount -= 1 }
    if let item, isUnseen(item) { unseenCount += 1 }
    return old
  }

  /// `report` was sent: the items it counts as new are reported by it. Returns the write's
  /// number, which its answer names.
  public mutating func sent(_ report: Report) -> Int {
    writes += 1
    for identity in unreported { items[identity]!.reportedIn = writes }
    awaiting[writes] = Array(unreported)
    unreported = []
    departed = [:]
    daemonCount = nil
    lastSent = report
    return writes
  }

  /// The daemon answered write `number` with the channel's `total`: the items it reported get
  /// that arrival.
  public mutating func answered(_ number: Int, total: Int) {
    for write in awaiting.keys.sorted() where write <= number {
      // Items gone since (read before the answer came) have no arrival to get.
      for identity in awaiting.removeValue(forKey: write)! {
        guard var item = items[identity], item.arrival == nil else { continue }
        item.arrival = total
        put(item, at: identity)
      }
    }
  }

  /// The daemon's claim answered with the channel's count: before the first write it is the
  /// base of that write's `k`; after, a count other than the last write's (a daemon that
  /// restarted without it) makes the next write go even when nothing changed here.
  public mutating func claimed(daemonCount count: Int) {
    if lastSent == nil {
      daemonCount = count
    } else if lastSent?.count != count {
      lastSent = nil
    }
  }

  /// A watermark the daemon applied (a click, `CLEARED <channel> upto=<T>`).
  public mutating func seen(upto total: Int) {
    seenUpto = max(seenUpto ?? total, total)
    unseenCount = items.values.count(where: isUnseen)
  }

  /// The items a watermark covers, in no particular order: shown when it was drawn, so their
  /// arrival is at most it.
  public func covered(upto total: Int) -> [(Identity, Place)] {
    items.compactMap { identity, item in item.arrival.map { $0 <= total } == true ? (identity, item.place) : nil }
  }
}
