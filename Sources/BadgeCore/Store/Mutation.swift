extension Store {
  /// A change a request asks for.
  public enum Mutation: Sendable, Equatable {
    /// A client's write to the channel (a pulse changes none of what `apply` changes: its window
    /// is `Store.pulse`'s).
    case write(ChannelWrite)
    /// Settings made over the socket: `set` fields are put over the channel's override, then the
    /// `reset` keys are dropped from it so that the config's value applies again.
    case configure(set: SettingsOverride, reset: [SettingKey])
    /// The owner's state of a mirrored channel (`MIRROR`): it replaces the local view.
    indirect case mirror(MirrorUpdate)
    /// A mirrored channel's staleness or pending writes changed (`STALE`, `DELIVERED`).
    indirect case mirrorState(MirrorState)
    /// The owner stopped sharing the channel (`MIRROR <channel> forget`): it is forgotten, and
    /// reads as made anew, its total at the store's `totalFloor`, which the owner's total does
    /// not raise.
    case forgetMirror

    /// Whether it is a write a client makes, which a mirrored channel forwards to its owner;
    /// the others put the owner's state here.
    var isWrite: Bool {
      switch self {
      case .write, .configure: return true
      case .mirror, .mirrorState, .forgetMirror: return false
      }
    }
  }

  /// Why a mutation was refused.
  public enum MutationError: Error, Equatable, Sendable {
    /// The count would pass `Limits.maxCount`.
    case countOutOfRange(current: Int)
    /// The change would make a new channel while its pool keeps as many as its limit allows
    /// (`[limits] max_channels`, or a bridge's own).
    case full(ChannelLimit)
    /// `CONFIGURE` of a channel mirrored from `owner`: its settings are the owner's.
    case mirrored(owner: String)
    /// `MIRROR` of a channel that is local here (a count or a setting of this machine's).
    case local
    /// `INCR`, `DECR` or `SET` of a channel the source `source` counts: only its reports count it.
    case sourced(source: String)
    /// A claim of a channel another source, `by`, counts already.
    case claimed(by: String)
    /// The forward outbox holds `capacity` writes already.
    case outboxFull(capacity: Int)
    /// The forward outbox holds `capacity` writes for `owner` already (its room for one owner).
    case ownerOutboxFull(owner: String, capacity: Int)
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
    // A channel a source counts (Store+Sources): one flag on the path of every change.
    if setup.isSourced, try Store.sourcedWrite(self, to: &channel) { return channel.unseen != unseen }
    switch self {
    case .write(.incr(let n)):
      guard n <= Limits.maxCount - count else { throw .countOutOfRange(current: count) }
      channel.count = count + n
    case .write(.decr(let n)):
      channel.count = max(0, count - n)
    case .write(.set(let n)):
      guard n <= Limits.maxCount else { throw .countOutOfRange(current: count) }
      channel.count = n
    case .write(.report(let n, let arrived, let reported)):
      guard n <= Limits.maxCount else { throw .countOutOfRange(current: count) }
      return Self.report(n, arrived: arrived, unseen: reported, to: &channel)
    case .write(.clear(let upTo)):
      channel.count = min(count, Self.after(upTo, total))
    case .write(.seen(let upTo)):
      channel.unseen = min(unseen, Self.after(upTo, total))
    case .write(.mute), .write(.unmute):
      // Muting to what the config says anyway drops the override, so that UNMUTE after MUTE
      // leaves no setting behind and the channel follows the config again.
      let muted = self == .write(.mute)
      channel.override.muted = muted == channel.configured.muted ? nil : muted
    case .write(.pulse):
      return false
    case .configure(let set, let reset):
      var override = channel.override.merged(with: set)
      for key in reset { key.reset(in: &override) }
      channel.override = override
    case .mirror, .mirrorState, .forgetMirror:
      return applyToMirror(&channel)
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

  /// A source's report put into `channel` (`ChannelWrite.report`): the count as reported, the
  /// arrivals `max(arrived, rise of the count)` added to the total and to `unseen` (at most the
  /// count), and `unseen` at most the source's figure. Apart from `apply`'s common rule, which
  /// counts only a rise of the count as arrivals. Returns whether anything changed.
  @inline(never)
  private static func report(_ n: Int, arrived: Int, unseen reported: Int?, to channel: inout Channel) -> Bool {
    let before = channel
    let arrivals = max(arrived, n - before.count)
    channel.count = n
    channel.unseen = min(before.unseen + arrivals, n)
    if let reported { channel.unseen = min(channel.unseen, max(0, reported)) }
    let (sum, overflow) = before.total.addingReportingOverflow(arrivals)
    channel.total = overflow ? .max : max(sum, n)
    return channel.count != before.count || channel.unseen != before.unseen || channel.total != before.total
  }

  /// The owner's state, staleness or pending writes put into a mirrored channel, or the
  /// channel forgotten: apart from `apply`, whose code every local change runs, so that it stays
  /// small enough to be inlined there. Returns whether anything changed.
  @inline(never)
  private func applyToMirror(_ channel: inout Channel) -> Bool {
    let setup = channel.setup
    switch self {
    case .mirror(let update):
      return Self.put(update, into: &channel)
    case .mirrorState(let state):
      channel.mirror = state
      return !channel.hasOverride(of: setup)
    case .forgetMirror:
      // The store puts the total at its `totalFloor` (`Store.apply`): the owner's total, read
      // from another machine, never raises the floor local channels count on from.
      channel.count = 0
      channel.unseen = 0
      channel.setup = ChannelSetup.make(
        configured: setup.configured, hasConfigSection: setup.hasConfigSection, override: SettingsOverride())
      return true
    default:
      preconditionFailure("not a mirror's mutation")
    }
  }

  /// Puts the owner's state into a mirrored channel: count, unseen items and total as the owner
  /// has them, its `muted` and dot style as settings (so the label is drawn here, and changes at
  /// once with a local write), and the mirror state, fresh (not stale) and still pending when
  /// it was. Returns whether anything changed.
  private static func put(_ update: MirrorUpdate, into channel: inout Channel) -> Bool {
    let before = channel
    channel.count = min(max(0, update.count), Limits.maxCount)
    channel.unseen = min(max(0, update.unseen), channel.count)
    channel.total = max(update.total, channel.count)
    var override = SettingsOverride()
    override.muted = update.muted
    override.style = update.dot ? .dot : .count
    channel.override = override
    channel.mirror = MirrorState(
      owner: update.owner, pending: before.mirror?.pending ?? false, ownerSeq: update.ownerSeq)
    return channel.count != before.count || channel.unseen != before.unseen || channel.total != before.total
      || !channel.hasOverride(of: before.setup)
  }

  /// How many of the items up to `total` came after the running total `upTo`: none when `upTo`
  /// is at or above it, or `nil` (a clear of everything); all of them when it is 0 (or below).
  @inline(__always)
  static func after(_ upTo: Int?, _ total: Int) -> Int {
    guard let upTo, upTo < total else { return 0 }
    return total - max(0, upTo)
  }
}
