import BadgeCore

/// The events held back for watchers that fell behind: one entry per channel (its latest
/// state and the number of the event that brought it), shared by every watcher behind.
///
/// A watcher whose output is congested stops getting event lines and only remembers the
/// number of the first event it missed. Once its output drains it is sent, in event order,
/// each channel it watches whose latest event is newer: the per-channel merge of PROTOCOL.md's
/// "Slow readers". The memory this takes follows the number of channels that changed while
/// someone was behind, not the number of watchers behind; with nobody behind it is empty, and
/// a stuck watcher costs nothing per event.
///
/// The entries keep the channel's state as the event showed it, so a channel forgotten since
/// (count 0, no setting) still reaches the watcher as its last change, never as `seq=0`.
struct EventBacklog {
  /// The number of the last event published.
  private(set) var lastEvent: UInt64 = 0
  /// The latest event of each channel that changed while a watcher was behind.
  private var latest: [ChannelName: (event: UInt64, channel: Channel)] = [:]
  /// How many watchers are behind.
  private(set) var behind = 0

  var isEmpty: Bool { latest.isEmpty }
  var count: Int { latest.count }

  /// Numbers a new event of `channel`, keeping it while a watcher is behind.
  mutating func record(_ channel: Channel) -> UInt64 {
    lastEvent += 1
    if behind > 0 { latest[channel.name] = (lastEvent, channel) }
    return lastEvent
  }

  /// A watcher misses event `event` (of `channel`) and every later one until it catches up.
  mutating func fallBehind(missing event: UInt64, of channel: Channel) {
    behind += 1
    latest[channel.name] = (event, channel)
  }

  /// A watcher is behind from the next event on without having missed one yet: its events are
  /// held while a long reply is produced for it (`Subscriptions.hold`).
  mutating func hold() {
    behind += 1
  }

  /// A watcher caught up, or left while behind. `oldestBehind` finds the first missed event of
  /// the oldest watcher still behind (none: everything can go); it looks at every watcher, so
  /// it is asked only once the entries have doubled since they were last pruned: watchers that
  /// fall behind and catch up turn after turn (a burst to more watchers than a turn sends to)
  /// then cost no pass over the watchers each, and entries no watcher needs are kept at most
  /// until then (`entries` leaves them out, and there is never more than one per channel).
  mutating func leave(oldestBehind: () -> UInt64?) {
    behind -= 1
    guard behind > 0 else {
      latest.removeAll(keepingCapacity: false)
      pruned = 0
      return
    }
    guard latest.count > max(EventBacklog.unprunedEntries, 2 * pruned) else { return }
    guard let oldest = oldestBehind() else {
      latest.removeAll(keepingCapacity: false)
      pruned = 0
      return
    }
    latest = latest.filter { $0.value.event >= oldest }
    pruned = latest.count
  }

  /// How many entries there were after the last pruning (`leave`).
  private var pruned = 0
  /// Entries kept without pruning while a watcher is behind: a look at every watcher costs more.
  static let unprunedEntries = 64

  /// The entries from event `first` on that `watches` accepts, in the order of their channels'
  /// latest changes (`seq`), events of the same change in event order. Not in event order: the
  /// end of a pulse window (or a reload) is an event without a change, and sent after a later
  /// change of another channel it would put a number below one already sent after it; a client
  /// that resumes after the highest number it received (`WATCH since=`, badged-web's
  /// `Last-Event-ID`) would then never get the earlier change.
  func entries(from first: UInt64, where watches: (ChannelName) -> Bool) -> [(event: UInt64, channel: Channel)] {
    latest.values.filter { $0.event >= first && watches($0.channel.name) }.sorted {
      ($0.channel.seq, $0.event) < ($1.channel.seq, $1.event)
    }
  }
}
