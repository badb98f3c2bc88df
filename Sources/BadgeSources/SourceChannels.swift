import BadgeCore

/// The channels the sources count into: each one's items, its claim and its writes.
///
/// A channel is written only once the daemon answered its claim on this connection (the claim's
/// count is the first write's base), one write at a time (`WriteScheduler`), and only when
/// `(n, k, u)` differs from what was sent.
struct SourceChannels {
  typealias Report = ItemSet<ItemPlace>.Report

  struct Channel {
    let source: String
    let onClear: OnClear
    var items = ItemSet<ItemPlace>(daemonCount: 0)
    var writes: WriteScheduler<Report>
    /// Whether the daemon answered this connection's claim.
    var claimed = false
    /// `ItemSet`'s number of the write on its way.
    var number: Int?
  }

  private(set) var channels: [ChannelName: Channel] = [:]
  /// The order channels were first named in, so that requests go in a stable order.
  private(set) var order: [ChannelName] = []
  var ids: SourceRequestIDs

  init(random: UInt32) { ids = SourceRequestIDs(random: random) }

  /// The channel, made for `source` when it is new: returns whether it was.
  @discardableResult
  mutating func ensure(_ name: ChannelName, for spec: SourceSpec) -> Bool {
    guard channels[name] == nil else { return false }
    channels[name] = Channel(
      source: spec.name, onClear: spec.onClear, writes: WriteScheduler(coalesceMs: spec.coalesceMs))
    order.append(name)
    return true
  }

  /// The channels `source` counts into.
  func names(of source: String) -> [ChannelName] { order.filter { channels[$0]?.source == source } }

  /// The items `source` counts now, over all its channels.
  func count(of source: String) -> Int { names(of: source).reduce(0) { $0 + (channels[$1]?.items.count ?? 0) } }

  /// Applies a source's change to a channel's items.
  mutating func apply(_ change: ItemChange, to name: ChannelName) {
    guard var channel = channels.removeValue(forKey: name) else { return }
    switch change {
    case .add(let item):
      channel.items.add(item.identity, at: item.place)
    case .remove(let identity, let place):
      if channel.items.items[identity]?.place == place { channel.items.remove(identity) }
    case .drop(let identity):
      channel.items.remove(identity)
    case .replace(let listing):
      channel.items.merge(listing.map { ($0.identity, $0.place) }, covering: { _ in true })
    }
    channels[name] = channel
  }

  /// The claim's answer: the channel may now be written.
  mutating func claimed(_ name: ChannelName, count: Int) {
    channels[name]?.claimed = true
    channels[name]?.items.claimed(daemonCount: count)
  }

  /// The connection ended: every claim is to be made again.
  mutating func connectionClosed() {
    for name in order { channels[name]?.claimed = false }
  }

  /// The writes that got no answer, to send first on a new connection, unchanged.
  mutating func resends(now: UInt64) -> [SourcesDaemonRequest] {
    order.compactMap { name in
      guard let (id, report) = channels[name]?.writes.resend(now: now) else { return nil }
      return .report(channel: name, count: report.count, arrived: report.arrived, unseen: report.unseen, id: id)
    }
  }

  /// The writes due now, in channel order; the earliest time one is due later, if any.
  mutating func due(now: UInt64) -> (requests: [SourcesDaemonRequest], next: UInt64?) {
    var requests: [SourcesDaemonRequest] = []
    var next: UInt64?
    for name in order {
      guard var channel = channels[name], channel.claimed, let report = channel.items.pending() else { continue }
      switch channel.writes.decide(now: now) {
      case .busy: continue
      case .wait(let until): next = min(next ?? until, until)
      case .send:
        let id = ids.next()
        channel.number = channel.items.sent(report)
        channel.writes.sent(report, id: id, now: now)
        channels[name] = channel
        requests.append(
          .report(channel: name, count: report.count, arrived: report.arrived, unseen: report.unseen, id: id))
      }
    }
    return (requests, next)
  }

  /// The write `id` was answered with the channel's `total` (`nil`: refused); the channel it
  /// was for, or `nil` when no write on its way has that id.
  mutating func answered(_ id: String, total: Int?) -> ChannelName? {
    for name in order {
      guard var channel = channels[name], channel.writes.answered(id: id) != nil else { continue }
      if let total, let number = channel.number { channel.items.answered(number, total: total) }
      channel.number = nil
      channels[name] = channel
      return name
    }
    return nil
  }

  /// A click's watermark: the items it covers, to mark read when the channel's source says so.
  mutating func cleared(_ name: ChannelName, upto total: Int) -> [ListedItem] {
    guard var channel = channels[name] else { return [] }
    channel.items.seen(upto: total)
    channels[name] = channel
    guard channel.onClear == .markRead else { return [] }
    return channel.items.covered(upto: total).map { ListedItem($0.0, at: $0.1) }
  }
}
