/// What a channel counts: items with identities (`ItemSet`: mail, files), or a number alone
/// (an `exec` command's), whose rises are its arrivals.
enum ChannelTally: Sendable {
  typealias Report = ItemSet<ItemPlace>.Report

  case items(ItemSet<ItemPlace>)
  case number(NumberTally)

  var count: Int {
    switch self {
    case .items(let set): return set.count
    case .number(let tally): return tally.value
    }
  }

  func pending() -> Report? {
    switch self {
    case .items(let set): return set.pending()
    case .number(let tally): return tally.pending()
    }
  }

  /// Changes the item set in place: the enum lets go of it first, so that a set of 100,000
  /// items is not copied for every change.
  mutating func withItems<Result>(_ body: (inout ItemSet<ItemPlace>) -> Result) -> Result? {
    guard case .items(var set) = self else { return nil }
    self = .number(NumberTally())
    defer { self = .items(set) }
    return body(&set)
  }

  /// `report` was sent; the number its answer names.
  mutating func sent(_ report: Report) -> Int {
    if let number = withItems({ $0.sent(report) }) { return number }
    guard case .number(var tally) = self else { return 0 }
    tally.lastSent = report
    self = .number(tally)
    return 0
  }

  mutating func answered(_ number: Int, total: Int) { withItems { $0.answered(number, total: total) } }

  mutating func claimed(daemonCount count: Int) {
    if withItems({ $0.claimed(daemonCount: count) }) != nil { return }
    guard case .number(var tally) = self else { return }
    tally.claimed(daemonCount: count)
    self = .number(tally)
  }

  mutating func seen(upto total: Int) { withItems { $0.seen(upto: total) } }

  /// The items a watermark covers; a number has none to mark read.
  func covered(upto total: Int) -> [ListedItem] {
    guard case .items(let set) = self else { return [] }
    return set.covered(upto: total).map { ListedItem($0.0, at: $0.1) }
  }
}

/// A channel counted by a number alone: each write's new items are what the number rose by
/// since the last write (or, before the first, since the daemon's count), as nothing tells
/// one counted thing from another.
struct NumberTally: Sendable {
  typealias Report = ItemSet<ItemPlace>.Report

  var value = 0
  /// The daemon's count when no write was sent yet.
  var base = 0
  var lastSent: Report?

  func pending() -> Report? {
    if let lastSent, lastSent.count == value { return nil }
    return Report(count: value, arrived: max(0, value - (lastSent?.count ?? base)), unseen: nil)
  }

  /// As `ItemSet.claimed(daemonCount:)`.
  mutating func claimed(daemonCount count: Int) {
    if lastSent == nil {
      base = count
    } else if lastSent?.count != count {
      lastSent = nil
      base = count
    }
  }
}
