extension Store {
  /// Puts a channel back as it was persisted (recovery); `seq` moves up to the channel's.
  /// `unseen` is kept within 0 … count; without it every item is unseen. The total is at least
  /// the count; without it (a record written before totals) it is the count.
  public func restore(
    name: ChannelName, count: Int, unseen: Int? = nil, total: Int? = nil, override: SettingsOverride,
    mirror: MirrorState? = nil, seq channelSeq: UInt64
  ) {
    var channel = channel(named: name)
    channel.count = min(max(0, count), Limits.maxCount)
    channel.unseen = min(max(0, unseen ?? channel.count), channel.count)
    channel.total = max(total ?? channel.count, channel.count)
    channel.override = override
    channel.mirror = mirror
    channel.seq = channelSeq
    channel.pulseUntil = 0
    channel.silenced = silencing(channel.settings)
    store(channel, at: slot(of: name))
    seq = max(seq, channelSeq)
  }

  /// Puts back the snapshot's `totalFloor` (recovery, before its channels): the floor moves up
  /// to `value`, and so do the totals of the channels config sections made before loading
  /// that were never written (`seq` 0, no count, no setting): they read as made anew now.
  public func restoreTotalFloor(atLeast value: Int) {
    guard value > totalFloor else { return }
    totalFloor = value
    for i in channels.indices where channels[i].seq == 0 && channels[i].count == 0 && !channels[i].hasOverride {
      channels[i].total = max(channels[i].total, value)
    }
  }

  /// Puts back one day of a channel's history as it was persisted (recovery).
  public func restoreHistory(of name: ChannelName, _ entry: HistoryDay) {
    dayHistory.restore(at: historyPlace(of: name), entry)
  }

  /// Moves the sequence number up to at least `value` (recovery: changes of channels that no
  /// longer exist still used their numbers).
  public func restoreSeq(atLeast value: UInt64) {
    seq = max(seq, value)
  }

  /// Drops history older than `History.keptDays` before `today` (compaction).
  public func pruneHistory() {
    dayHistory.prune(today: today)
  }
}
