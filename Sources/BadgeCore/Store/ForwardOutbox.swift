/// One write to a mirrored channel, waiting until its owner has applied it: the write the owner
/// is to carry out, with the id that makes its redelivery harmless.
///
/// The daemon hands it to the bridge, and the journal and the snapshot keep it, as its request
/// line (BadgeProtocol's `RequestEncoder`): `INCR ci 1 id=<id>`, `CLEAR ci upto=17 id=<id>`, and
/// a `PULSE` without the id, since the owner's `PULSE` takes none.
public struct ForwardEntry: Equatable, Sendable {
  /// The request id, `<host>:<epoch>:<counter>`: unique across machines (the host) and across
  /// lifetimes of the state folder (the epoch, drawn when the folder is made).
  public var id: String
  /// The counter in `id`: ids are numbered in the order the writes were taken.
  public var counter: UInt64
  public var channel: ChannelName
  /// The write as the owner is to carry it out: a clear or a sight of every item is one up to
  /// the total shown here when it was made (`ChannelWrite.forwarded`).
  public var write: ChannelWrite
  /// The sequence number of the change it came with, so that a snapshot covering that change
  /// makes the journal's copy redundant.
  public var seq: UInt64

  public init(id: String, counter: UInt64, channel: ChannelName, write: ChannelWrite, seq: UInt64) {
    self.id = id
    self.counter = counter
    self.channel = channel
    self.write = write
    self.seq = seq
  }
}

/// A forwarded write in a change's `Store.Outcome`, boxed: one reference, empty for the changes
/// of local channels.
public final class Forwarded: Sendable {
  public let entry: ForwardEntry

  public init(_ entry: ForwardEntry) { self.entry = entry }
}

/// The forward outbox: the writes to mirrored channels taken here and not yet applied by their
/// owners, oldest first, saved with the changes they came with and removed by `DELIVERED`.
///
/// Bounded: at most `capacity` writes wait; past it a write to a mirrored channel is refused
/// (`ERR full`) and changes nothing, so that a write is never taken and then lost.
public struct ForwardOutbox: Equatable, Sendable {
  /// The writes waiting, oldest first.
  public private(set) var entries: [ForwardEntry] = []
  /// How many of `entries` each channel has: a channel is `pending` while it has any.
  private var perChannel: [ChannelName: Int] = [:]
  /// The state folder's epoch (drawn once when the folder is made, then kept in its snapshot);
  /// 0 until the daemon sets it.
  public var epoch: UInt64 = 0
  /// The counter of the next id.
  public internal(set) var nextCounter: UInt64 = 1
  /// The host part of ids (the machine's name).
  public var host = "localhost"
  /// The most writes that wait at once.
  public var capacity: Int

  /// The bound the daemon keeps: a week offline with a few hundred writes a day fits many
  /// times over, and the snapshot stays a few megabytes.
  public static let defaultCapacity = 10_000

  public init(capacity: Int = ForwardOutbox.defaultCapacity) {
    self.capacity = capacity
  }

  public var count: Int { entries.count }
  public var isFull: Bool { entries.count >= capacity }

  /// Whether writes to `name` wait.
  public func hasPending(_ name: ChannelName) -> Bool { (perChannel[name] ?? 0) > 0 }

  /// The id the next write gets.
  var nextID: String {
    var text = String(host.prefix(32)) + ":"
    text += String(epoch, radix: 16) + ":" + String(nextCounter)
    return text
  }

  /// Adds a write of `name` with the next id. Returns the entry.
  mutating func add(_ name: ChannelName, write: ChannelWrite, seq: UInt64) -> ForwardEntry {
    let entry = ForwardEntry(id: nextID, counter: nextCounter, channel: name, write: write, seq: seq)
    nextCounter += 1
    restore(entry)
    return entry
  }

  /// Puts back a saved entry (recovery, or `add`); the counter moves past its own.
  public mutating func restore(_ entry: ForwardEntry) {
    guard !entries.contains(where: { $0.id == entry.id }) else { return }
    entries.append(entry)
    perChannel[entry.channel, default: 0] += 1
    nextCounter = max(nextCounter, entry.counter + 1)
  }

  /// Moves the counter up to at least `value` (recovery: ids handed out before stay used).
  public mutating func restoreCounter(atLeast value: UInt64) {
    nextCounter = max(nextCounter, value)
  }

  /// Removes the entry with `id`; returns it, or `nil` when none waits with that id.
  @discardableResult
  public mutating func remove(id: String) -> ForwardEntry? {
    guard let i = entries.firstIndex(where: { $0.id == id }) else { return nil }
    let entry = entries.remove(at: i)
    let left = (perChannel[entry.channel] ?? 1) - 1
    perChannel[entry.channel] = left > 0 ? left : nil
    return entry
  }
}
