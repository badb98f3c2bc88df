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
/// Bounded: at most `capacity` writes wait, and at most `ownerCapacity` for any one owner, so
/// an owner that stays away fills only its own room and writes to other owners' channels still
/// go; past either a write to a mirrored channel is refused (`ERR full`, naming the owner when
/// it is that owner's room) and changes nothing, so that a write is never taken and then lost.
public struct ForwardOutbox: Equatable, Sendable {
  /// The writes waiting, oldest first.
  public private(set) var entries: [ForwardEntry] = []
  /// How many of `entries` each channel has: a channel is `pending` while it has any.
  private var perChannel: [ChannelName: Int] = [:]
  /// The ids of `entries`, so that taking a write costs the same however many wait.
  private var ids: Set<String> = []
  /// How many of `entries` go to each owner, and the owner each channel with writes had when
  /// its latest was taken (a channel's writes count under one owner: the one they go to now).
  /// Entries loaded from the files count once their channels' owners are known (`countOwners`).
  private var perOwner: [String: Int] = [:]
  private var ownerOfChannel: [ChannelName: String] = [:]
  /// The state folder's epoch (drawn once when the folder is made, then kept in its snapshot);
  /// 0 until the daemon sets it.
  public var epoch: UInt64 = 0
  /// The counter of the next id.
  public internal(set) var nextCounter: UInt64 = 1
  /// The host part of ids (the machine's name).
  public var host = "localhost"
  /// The most writes that wait at once, in all and for one owner.
  public var capacity: Int
  public var ownerCapacity: Int

  /// The bounds the daemon keeps: for one owner, a week offline with a few hundred writes a
  /// day fits many times over; in all, four owners away that long, and the snapshot stays a
  /// few megabytes.
  public static let defaultCapacity = 40_000
  public static let defaultOwnerCapacity = 10_000

  public init(capacity: Int = ForwardOutbox.defaultCapacity, ownerCapacity: Int = ForwardOutbox.defaultOwnerCapacity) {
    self.capacity = capacity
    self.ownerCapacity = ownerCapacity
  }

  public var count: Int { entries.count }
  public var isFull: Bool { entries.count >= capacity }

  /// How many writes wait for `owner`.
  public func waiting(for owner: String) -> Int { perOwner[owner] ?? 0 }

  /// Whether `owner`'s room is full.
  public func isFull(for owner: String) -> Bool { waiting(for: owner) >= ownerCapacity }

  /// The owners whose room is full, sorted.
  public var fullOwners: [String] { perOwner.filter { $0.value >= ownerCapacity }.keys.sorted() }

  /// Whether writes to `name` wait.
  public func hasPending(_ name: ChannelName) -> Bool { (perChannel[name] ?? 0) > 0 }

  /// The id the next write gets.
  var nextID: String {
    var text = String(host.prefix(32)) + ":"
    text += String(epoch, radix: 16) + ":" + String(nextCounter)
    return text
  }

  /// Adds a write of `name`, for `owner`, with the next id. Returns the entry.
  mutating func add(_ name: ChannelName, owner: String, write: ChannelWrite, seq: UInt64) -> ForwardEntry {
    let entry = ForwardEntry(id: nextID, counter: nextCounter, channel: name, write: write, seq: seq)
    nextCounter += 1
    attribute(name, to: owner)
    restore(entry)
    perOwner[owner, default: 0] += 1
    return entry
  }

  /// The writes of `name` waiting already count for `owner`: they all go to its owner now.
  private mutating func attribute(_ name: ChannelName, to owner: String) {
    let previous = ownerOfChannel[name]
    guard previous != owner else { return }
    let waiting = perChannel[name] ?? 0
    if let previous {
      let left = (perOwner[previous] ?? 0) - waiting
      perOwner[previous] = left > 0 ? left : nil
    }
    ownerOfChannel[name] = owner
    if waiting > 0 { perOwner[owner, default: 0] += waiting }
  }

  /// Counts the writes loaded from the files for their channels' owners (`owner`; a channel
  /// no longer mirrored counts for no owner's room).
  public mutating func countOwners(_ owner: (ChannelName) -> String?) {
    perOwner = [:]
    ownerOfChannel = [:]
    for (name, waiting) in perChannel {
      guard let owner = owner(name) else { continue }
      ownerOfChannel[name] = owner
      perOwner[owner, default: 0] += waiting
    }
  }

  /// Puts back a saved entry (recovery, or `add`); the counter moves past its own.
  public mutating func restore(_ entry: ForwardEntry) {
    guard ids.insert(entry.id).inserted else { return }
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
    ids.remove(id)
    let left = (perChannel[entry.channel] ?? 1) - 1
    perChannel[entry.channel] = left > 0 ? left : nil
    if let owner = ownerOfChannel[entry.channel] {
      let ownerLeft = (perOwner[owner] ?? 1) - 1
      perOwner[owner] = ownerLeft > 0 ? ownerLeft : nil
      if left == 0 { ownerOfChannel[entry.channel] = nil }
    }
    return entry
  }
}
