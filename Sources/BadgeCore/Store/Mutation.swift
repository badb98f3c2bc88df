extension Store {
  /// A change a request asks for.
  public enum Mutation: Sendable, Equatable {
    case increment(Int)
    case decrement(Int)
    case set(Int)
    /// `CLEAR`: the items up to the running total `upTo` are read, so the count keeps only those
    /// that came after it (`Int.max`, or any `upTo` at or above the total: all are read).
    case clear(upTo: Int)
    /// `SEEN`: the items up to the running total `upTo` are seen, so `unseen` keeps only those
    /// that came after it (`Int.max`: all are seen); the count stays.
    case seen(upTo: Int)
    case mute
    case unmute
    /// Settings made over the socket: `set` fields are put over the channel's override, then the
    /// `reset` keys are dropped from it so that the config's value applies again.
    case configure(set: SettingsOverride, reset: [SettingKey])
  }

  /// Why a mutation was refused.
  public enum MutationError: Error, Equatable, Sendable {
    /// The count would pass `Limits.maxCount`.
    case countOutOfRange(current: Int)
    /// The change would make a new channel while its pool keeps as many as its limit allows
    /// (`[limits] max_channels`, or a bridge's own).
    case full(ChannelLimit)
  }
}

extension Store.Mutation {
  /// Applies this mutation to `channel`: the one place a mutation's arithmetic lives (the
  /// count, the unseen items, the running total, the override), apart from what the store keeps
  /// beside a channel (pulse windows, do-not-disturb, history, `seq`, request ids).
  ///
  /// - Returns: whether it changed any of them; when it did not, it is no change (nothing to
  ///   persist or push).
  /// - Throws: `MutationError.countOutOfRange` when the count would pass `Limits.maxCount`;
  ///   `channel` is unchanged then.
  @inline(__always)
  func apply(to channel: inout Channel) throws(Store.MutationError) -> Bool {
    let count = channel.count
    let unseen = channel.unseen
    let total = channel.total
    let setup = channel.setup
    switch self {
    case .increment(let n):
      guard n <= Limits.maxCount - count else { throw .countOutOfRange(current: count) }
      channel.count = count + n
    case .decrement(let n):
      channel.count = max(0, count - n)
    case .set(let n):
      guard n <= Limits.maxCount else { throw .countOutOfRange(current: count) }
      channel.count = n
    case .clear(let upTo):
      channel.count = min(count, Self.after(upTo, total))
    case .seen(let upTo):
      channel.unseen = min(unseen, Self.after(upTo, total))
    case .mute, .unmute:
      // Muting to what the config says anyway drops the override, so that UNMUTE after MUTE
      // leaves no setting behind and the channel follows the config again.
      let muted = self == .mute
      channel.override.muted = muted == channel.configured.muted ? nil : muted
    case .configure(let set, let reset):
      var override = channel.override.merged(with: set)
      for key in reset { key.reset(in: &override) }
      channel.override = override
    }
    // The unseen arithmetic and the running total, one rule for every request: a rise adds the
    // arrivals to both; a fall lowers `unseen` to at most the new count (so `CLEAR` zeroes it),
    // and `SEEN` has lowered it already.
    if channel.count > count {
      let rise = channel.count - count
      channel.unseen += rise
      let (sum, overflow) = total.addingReportingOverflow(rise)
      channel.total = overflow ? .max : sum
    } else {
      channel.unseen = min(channel.unseen, channel.count)
    }
    return channel.count != count || channel.unseen != unseen || !channel.hasOverride(of: setup)
  }

  /// How many of the items up to `total` came after the running total `upTo`: none when `upTo`
  /// is at or above it, as a clear of everything; all of them when it is 0 (or below).
  @inline(__always)
  private static func after(_ upTo: Int, _ total: Int) -> Int {
    upTo >= total ? 0 : total - max(0, upTo)
  }
}
