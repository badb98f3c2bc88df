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

  /// A watcher caught up, or left while behind. `oldestBehind` is the first missed event of
  /// the oldest watcher still behind (none: everything can go).
  mutating func leave(oldestBehind: UInt64?) {
    behind -= 1
    guard let oldest = oldestBehind, behind > 0 else {
      latest.removeAll(keepingCapacity: false)
      return
    }
    latest = latest.filter { $0.value.event >= oldest }
  }

  /// The entries from event `first` on that `watches` accepts, in event order.
  func entries(from first: UInt64, where watches: (ChannelName) -> Bool) -> [(event: UInt64, channel: Channel)] {
    latest.values.filter { $0.event >= first && watches($0.channel.name) }.sorted { $0.event < $1.event }
  }
}
