import BadgeCore

/// At most one publish per channel per interval, the latest state always going out: an owner
/// taking thousands of changes a second publishes each channel's state at most every
/// `interval`, and the last state of a burst is published at most `interval` after it.
///
/// A state offered when the channel has not been published for an interval goes out at once
/// (a single change is never delayed); one offered sooner waits, replacing any state waiting,
/// until the interval since the last publish has passed.
public struct StateCoalescer<Value: Sendable>: Sendable {
  /// In microseconds of the monotonic clock.
  public let interval: UInt64
  /// When each channel was last published, kept while that is less than an interval ago.
  private var lastPublished: [ChannelName: UInt64] = [:]
  private var waiting: [ChannelName: Value] = [:]

  /// 50 ms: twenty publishes a second per channel at most.
  public static var defaultInterval: UInt64 { 50_000 }

  public init(interval: UInt64 = defaultInterval) { self.interval = interval }

  /// Offers the channel's latest state at `now`: the state to publish now, or `nil` when it
  /// waits for `due`.
  public mutating func offer(_ channel: ChannelName, _ value: Value, now: UInt64) -> Value? {
    if let last = lastPublished[channel], now < last + interval {
      waiting[channel] = value
      return nil
    }
    waiting[channel] = nil
    lastPublished[channel] = now
    return value
  }

  /// The states whose interval has passed by `now`, to publish now, in channel order.
  public mutating func due(now: UInt64) -> [(ChannelName, Value)] {
    var out: [(ChannelName, Value)] = []
    for (channel, value) in waiting where now >= (lastPublished[channel] ?? 0) + interval {
      out.append((channel, value))
    }
    for (channel, _) in out {
      waiting[channel] = nil
      lastPublished[channel] = now
    }
    // Forget publish times that can no longer hold anything back.
    lastPublished = lastPublished.filter { now < $0.value + interval || waiting[$0.key] != nil }
    return out.sorted { $0.0 < $1.0 }
  }

  /// When the next waiting state is due; `nil` when none waits.
  public var nextDeadline: UInt64? {
    waiting.keys.map { (lastPublished[$0] ?? 0) + interval }.min()
  }

  /// Whether a state of `channel` waits.
  public func isWaiting(_ channel: ChannelName) -> Bool { waiting[channel] != nil }

  /// Drops what waits for `channel` (it is no longer published from here).
  public mutating func drop(_ channel: ChannelName) { waiting[channel] = nil }

  /// Drops everything (the broker connection is gone; the next one republishes every state).
  public mutating func reset() {
    waiting.removeAll()
    lastPublished.removeAll()
  }
}
