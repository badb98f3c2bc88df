import BadgeCore
import BadgeProtocol

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
    var tally: ChannelTally
    var writes: WriteScheduler<Report>
    /// Whether the daemon answered this connection's claim.
    var claimed = false
    /// `ItemSet`'s number of the write on its way.
    var number: Int?
    /// Whether no source counts it any more (a reload stopped its source): it is written 0,
    /// then released once that write is answered.
    var releasing = false
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
    let tally: ChannelTally =
      spec.kind == .exec ? .number(NumberTally()) : .items(ItemSet(daemonCount: 0))
    channels[name] = Channel(
      source: spec.name, onClear: spec.onClear, tally: tally, writes: WriteScheduler(coalesceMs: spec.coalesceMs))
    order.append(name)
    return true
  }

  /// The channels `source` counts into.
  func names(of source: String) -> [ChannelName] {
    order.filter { channels[$0].map { $0.source == source && !$0.releasing } ?? false }
  }

  /// The channels being released, with their source and `on_clear`, to claim again on a new
  /// connection so that their 0 is written.
  var releasing: [(channel: ChannelName, source: String, onClear: OnClear)] {
    order.compactMap { name in channels[name].flatMap { $0.releasing ? (name, $0.source, $0.onClear) : nil } }
  }

  /// No source counts `name` any more: it goes to 0, and `releases()` lets it go once the
  /// daemon has that.
  mutating func release(_ name: ChannelName) {
    guard var channel = channels.removeValue(forKey: name) else { return }
    channel.releasing = true
    if case .number(var tally) = channel.tally {
      tally.value = 0
      channel.tally = .number(tally)
    } else {
      channel.tally.withItems { $0.merge([], covering: { _ in true }) }
    }
    channels[name] = channel
  }

  /// A channel the daemon says a source of an earlier run claimed, which no source counts now:
  /// kept only to be claimed for that source, written 0 and released (`release(_:)`'s way).
  mutating func adoptReleasing(_ name: ChannelName, source: String) {
    guard channels[name] == nil else { return }
    channels[name] = Channel(
      source: source, onClear: .seen, tally: .number(NumberTally()), writes: WriteScheduler(coalesceMs: 0),
      releasing: true)
    order.append(name)
  }

  /// Forgets `name` without a write (a reload hands it to a source that claims it afresh).
  mutating func forget(_ name: ChannelName) {
    channels[name] = nil
    order.removeAll { $0 == name }
  }

  /// `SOURCE <source> release <channel>` for each releasing channel whose 0 the daemon has
  /// (claimed on this connection, no write pending or on its way); those channels are gone.
  mutating func releases() -> [SourcesDaemonRequest] {
    let done = order.filter {
      guard let channel = channels[$0], channel.releasing, channel.claimed else { return false }
      return channel.writes.inFlight == nil && channel.tally.pending() == nil
    }
    let requests = done.map { SourcesDaemonRequest(.source(channels[$0]!.source, .release($0))) }
    for name in done { forget(name) }
    return requests
  }

  /// The count of one channel.
  func count(of channel: ChannelName) -> Int { channels[channel]?.tally.count ?? 0 }

  /// The items `source` counts now, over all its channels.
  func count(of source: String) -> Int { names(of: source).reduce(0) { $0 + (channels[$1]?.tally.count ?? 0) } }

  /// Applies a source's change to a channel's items.
  mutating func apply(_ change: ItemChange, to name: ChannelName) {
    guard var channel = channels.removeValue(forKey: name) else { return }
    defer { channels[name] = channel }
    if case .count(let value) = change, case .number(var tally) = channel.tally {
      tally.value = value
      channel.tally = .number(tally)
      return
    }
    channel.tally.withItems { items in
      switch change {
      case .add(let item):
        items.add(item.identity, at: item.place)
      case .remove(let identity, let place):
        if items.items[identity]?.place == place { items.remove(identity) }
      case .drop(let identity):
        items.remove(identity)
      case .replace(let listing):
        items.merge(listing.map { ($0.identity, $0.place) }, covering: { _ in true })
      case .count:
        break
      }
    }
  }

  /// The claim's answer: the channel may now be written.
  mutating func claimed(_ name: ChannelName, count: Int) {
    channels[name]?.claimed = true
    channels[name]?.tally.claimed(daemonCount: count)
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
  /// Only channels of sources that `counted` (a source that never counted yet would write a
  /// count it does not know, and its first listing would then arrive as new items).
  mutating func due(now: UInt64, counted: Set<String>) -> (requests: [SourcesDaemonRequest], next: UInt64?) {
    var requests: [SourcesDaemonRequest] = []
    var next: UInt64?
    for name in order {
      guard let channel = channels[name], channel.claimed, channel.releasing || counted.contains(channel.source),
        let report = channel.tally.pending()
      else { continue }
      switch channel.writes.decide(now: now) {
      case .busy: continue
      case .wait(let until): next = min(next ?? until, until)
      case .send:
        let id = ids.next()
        // In place: a copy of the channel would copy its items.
        let number = channels[name]?.tally.sent(report)
        channels[name]?.number = number
        channels[name]?.writes.sent(report, id: id, now: now)
        requests.append(
          .report(channel: name, count: report.count, arrived: report.arrived, unseen: report.unseen, id: id))
      }
    }
    return (requests, next)
  }

  /// The write `id` was answered with the channel's `total` (`nil`: refused); the channel it
  /// was for, or `nil` when no write on its way has that id.
  mutating func answered(_ id: String, total: Int?) -> ChannelName? {
    for name in order where channels[name]?.writes.inFlight?.id == id {
      _ = channels[name]?.writes.answered(id: id)
      if let total, let number = channels[name]?.number { channels[name]?.tally.answered(number, total: total) }
      channels[name]?.number = nil
      return name
    }
    return nil
  }

  /// A click's watermark: the items it covers, to mark read when the channel's source says so.
  mutating func cleared(_ name: ChannelName, upto total: Int) -> [ListedItem] {
    channels[name]?.tally.seen(upto: total)
    guard let channel = channels[name], channel.onClear == .markRead else { return [] }
    return channel.tally.covered(upto: total)
  }
}
