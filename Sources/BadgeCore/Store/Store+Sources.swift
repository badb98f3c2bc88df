extension Store {
  /// The rules of a channel a source counts, on the path of every change (`Mutation.apply`):
  /// only the source's reports (`ChannelWrite.report`) change its count, so `INCR`, `DECR` and
  /// `SET` are refused; a clear is applied as a sight of the same items (`CLEAR … upto=T` as
  /// `SEEN … upto=T`), since the count is what the source holds and a click only acknowledges
  /// it. Returns whether it took the mutation (a clear, applied here); every other write is
  /// applied as for any channel. Apart from `apply`, so that its path holds only the flag that
  /// leads here.
  @inline(never)
  static func sourcedWrite(_ mutation: Mutation, to channel: inout Channel) throws(MutationError) -> Bool {
    guard case .write(let write) = mutation, let source = channel.source else { return false }
    switch write {
    case .incr, .decr, .set: throw .sourced(source: source.name)
    case .clear(let upTo):
      channel.unseen = min(channel.unseen, Mutation.after(upTo, channel.total))
      return true
    case .report, .seen, .mute, .unmute, .pulse: return false
    }
  }

  /// The source `source` claims the channel `name` (`SOURCE <source> claim <channel>`): from
  /// now on only its reports count it, a clear marks it seen, it shows its unseen items unless
  /// a `[channel …]` section sets `badge`, and it is kept even at count 0. A claim again by the
  /// same source makes it fresh (not stale).
  ///
  /// - Throws: `MutationError.mirrored` for a channel mirrored from another machine (its source
  ///   is its owner's); `.claimed` when another source claimed it; `.full` when it would be a
  ///   new channel past its pool's limit. Nothing changed then.
  @discardableResult
  public func claim(_ name: ChannelName, by source: String, now: UInt64) throws(MutationError) -> Outcome {
    try changeMark(of: name, now: now) { channel throws(MutationError) in
      if let mirror = channel.mirror { throw .mirrored(owner: mirror.owner) }
      if let held = channel.source, held.name != source { throw .claimed(by: held.name) }
      channel.source = SourceMark(name: source)
    }
  }

  /// The source `source` gives up the channel `name` (`SOURCE <source> release <channel>`): an
  /// ordinary channel again, with its count as it is (forgotten when that is 0 and it has no
  /// setting). A channel no source claimed is no change.
  ///
  /// - Throws: `MutationError.claimed` when another source claimed it; nothing changed then.
  @discardableResult
  public func release(_ name: ChannelName, by source: String, now: UInt64) throws(MutationError) -> Outcome {
    try changeMark(of: name, now: now) { channel throws(MutationError) in
      guard let held = channel.source else { return }
      guard held.name == source else { throw .claimed(by: held.name) }
      channel.source = nil
    }
  }

  /// Marks the channels of the source `source` (every claimed channel when `nil`: the sources
  /// program went away) stale or fresh; a stale one keeps `since`, the wall-clock second its
  /// source was last in order (the earliest, when it was stale already). Calls `changed` with
  /// each channel that changed, in name order.
  public func markSources(
    _ source: String?, stale: Bool, since: Int?, now: UInt64, changed: (Outcome) -> Void
  ) {
    let claimed = channels.filter { channel in
      guard let mark = channel.source else { return false }
      return source == nil || mark.name == source
    }.sorted { $0.name < $1.name }
    for channel in claimed {
      let outcome = try? changeMark(of: channel.name, now: now) { channel in
        guard var mark = channel.source else { return }
        if stale {
          if !mark.stale { mark.since = since }
          mark.stale = true
        } else {
          mark.stale = false
          mark.since = nil
        }
        channel.source = mark
      }
      if let outcome, outcome.changed { changed(outcome) }
    }
  }

  /// The channels the source `source` counts (every claimed channel when `nil`), by name.
  public func sourced(by source: String? = nil) -> [Channel] {
    channels.filter { channel in
      guard let mark = channel.source else { return false }
      return source == nil || mark.name == source
    }.sorted { $0.name < $1.name }
  }

  /// Changes the source mark of the channel `name` with `change`, then its settings as the
  /// config gives them to a claimed channel or an ordinary one, as a change of the store
  /// (undone with the others, numbered, pushed to watchers), though no count changed and
  /// nothing of it is journaled but the settings in force.
  private func changeMark(
    of name: ChannelName, now: UInt64, _ change: (inout Channel) throws(MutationError) -> Void
  ) throws(MutationError) -> Outcome {
    let position = slot(of: name)
    let before = position.map { channels[$0] } ?? newChannel(name)
    var after = before
    try change(&after)
    guard after.source != before.source else {
      return Outcome(channel: before, changed: false, previousCount: before.count, day: nil)
    }
    applyConfig(to: &after)
    if position == nil && after.isListed {
      let pool = ChannelPool(of: after)
      let limit = config.channelLimit(of: pool)
      if pooled[pool] >= limit.value { throw .full(limit) }
    }
    undo.changed(name, before: position == nil ? nil : before, day: today, history: .unchanged, seq: seq)
    seq += 1
    after.seq = seq
    store(after, at: position)
    return Outcome(channel: after, changed: true, previousCount: before.count, day: nil)
  }
}
