import BadgeCore

/// The last `capacity` changes, in sequence order, each the channel as it was after it (with its
/// `seq`): what `WATCH since=<seq>` replays (PROTOCOL.md, "WATCH"). Only changes are kept, one
/// entry per change of a channel; the end of a pulse window, `PULSE`, a reload and
/// do-not-disturb are not changes and are not kept. In memory only: a restart begins empty.
///
/// Memory is bounded: a ring of at most 1,024 `Channel` values of 128 bytes each on 64-bit Linux
/// (the name is inline), so 128 KiB, whose settings are shared with the store's channels (a
/// channel's settings are one reference that a count change leaves as it was), filled as
/// changes come and never grown past it: a change past it takes the oldest one's place. A
/// replay too long for one turn holds a copy of the changes it has still to send (at most the
/// same 128 KiB) until it ends, beside the `max_unsent_bytes` its connection may hold.
///
/// A change enters as it is made, before its turn is saved; when the turn's commit fails, the
/// store takes its changes back and so does the ring (`forget(after:)`), so the ring only ever
/// holds changes that are saved or being saved in the turn under way.
struct RecentChanges {
  /// How many changes are kept.
  static let capacity = 1024

  /// The changes, oldest at `first`: a plain array until it first fills, then a ring.
  private var storage: [Channel] = []
  private var first = 0
  private(set) var count = 0
  /// The sequence number of the change before the oldest kept (every change after it is
  /// kept); `nil` until the first change comes, as the numbers before it (changes made before
  /// a restart) are not known to be changes or not.
  private(set) var floor: UInt64?

  /// Keeps `channel`'s change (its `seq` the store's new sequence number), in place of the
  /// oldest when the ring is full.
  mutating func record(_ channel: Channel) {
    if floor == nil { floor = channel.seq - 1 }  // the store's number before this change
    if storage.count < Self.capacity {
      storage.append(channel)  // never wrapped yet: `first` is 0
      count += 1
    } else if count < Self.capacity {
      storage[(first + count) % Self.capacity] = channel
      count += 1
    } else {
      floor = storage[first].seq
      storage[first] = channel
      first = (first + 1) % Self.capacity
    }
  }

  /// Takes back the changes after `seq` (the store's number once a failed turn was undone): the
  /// newest entries.
  mutating func forget(after seq: UInt64) {
    while count > 0, storage[(first + count - 1) % storage.count].seq > seq {
      if storage.count < Self.capacity { storage.removeLast() }
      count -= 1
    }
  }

  /// The changes after `seq` that `wanted` accepts (by channel name), in sequence order, when
  /// every change after `seq` is kept and `seq` is not ahead of `current` (the store's number);
  /// `nil` otherwise (the reply is then a snapshot: `OK watching reset`).
  func changes(after seq: UInt64, current: UInt64, where wanted: (ChannelName) -> Bool) -> [Channel]? {
    guard seq <= current else { return nil }
    guard let floor else { return seq == current ? [] : nil }
    guard seq >= floor else { return nil }
    var found: [Channel] = []
    // The changes after `seq` are the newest ones: walk back to the first of them.
    var start = count
    while start > 0, storage[(first + start - 1) % storage.count].seq > seq { start -= 1 }
    for i in start..<count {
      let channel = storage[(first + i) % storage.count]
      if wanted(channel.name) { found.append(channel) }
    }
    return found
  }
}
