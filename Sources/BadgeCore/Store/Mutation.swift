extension Store {
  /// A change a request asks for.
  public enum Mutation: Sendable, Equatable {
    case increment(Int)
    case decrement(Int)
    case set(Int)
    /// `SEEN`: every unread item is now seen (`unseen` goes to 0); the count stays.
    case seen
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
  /// count, the unseen items, the override), apart from what the store keeps beside a channel
  /// (pulse windows, do-not-disturb, history, `seq`).
  ///
  /// - Returns: whether it changed any of them; when it did not, it is no change (nothing to
  ///   persist or push).
  /// - Throws: `MutationError.countOutOfRange` when the count would pass `Limits.maxCount`;
  ///   `channel` is unchanged then.
  @inline(__always)
  func apply(to channel: inout Channel) throws(Store.MutationError) -> Bool {
    let count = channel.count
    let unseen = channel.unseen
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
    case .seen:
      channel.unseen = 0
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
    // The unseen arithmetic, one rule for every request: a rise adds the arrivals, a fall
    // lowers `unseen` to at most the new count (so `CLEAR` zeroes it), and `SEEN` has set it to
    // 0 already.
    if channel.count > count {
      channel.unseen += channel.count - count
    } else {
      channel.unseen = min(channel.unseen, channel.count)
    }
    return channel.count != count || channel.unseen != unseen || !channel.hasOverride(of: setup)
  }
}
