import BadgeCore

/// The events every SSE client of badged-web reads: each formatted once, kept in order,
/// shared by every stream, so a change costs one formatting however many clients watch.
///
/// Clients hold cursors, absolute positions that only grow (the first entry ever appended is
/// at 0), so a cursor stays meaningful while old entries are dropped: one older than what is
/// kept `fellBehind` and starts again from a snapshot.
///
/// Resuming (`position(resumingAfter:)`) rests on the stream's ids (docs/WEB.md): a change
/// carries its seq as its id, every other event none, so a browser's `Last-Event-ID` is the
/// seq of the last change it drew. An entry's `key` is the change's seq, or for any other
/// event the seq of the last change before it; keys never fall within one epoch (the entries
/// since the last `rebase`), so the first entry a client missed is found by bisection.
public struct EventRing: Sendable {
  /// One preformatted SSE event.
  public struct Entry: Sendable, Equatable {
    /// The change's seq, or for another event the seq of the change before it.
    public var key: UInt64
    /// Whether the event is a `change` (it carries `id: <key>`).
    public var isChange: Bool
    /// The channel the event is about, to filter a stream's patterns; `nil` for the events of
    /// every client (dnd, reset, snapshot, offline).
    public var channel: ChannelName?
    /// The event as sent, ending with its blank line.
    public var bytes: [UInt8]

    public init(key: UInt64, isChange: Bool, channel: ChannelName? = nil, bytes: [UInt8]) {
      self.key = key
      self.isChange = isChange
      self.channel = channel
      self.bytes = bytes
    }
  }

  /// What a reader gets.
  public enum Read: Sendable, Equatable {
    /// The bytes of the entries from the cursor (empty when there is nothing new), and the
    /// cursor to read from next.
    case events([UInt8], next: UInt64)
    /// The cursor is older than the oldest entry kept: the client gets `reset` and a fresh
    /// snapshot, then reads on from `end`.
    case fellBehind
  }

  /// Where a client that resumes after a change's seq goes on.
  public enum Resume: Sendable, Equatable {
    /// Read from this cursor: every event it missed is kept.
    case at(UInt64)
    /// Some changes after the id are no longer kept: the program replays them from badged
    /// (`WATCH since=<id>`), then reads on from `position(resumingAfter:)` of the last one.
    case needsReplay
    /// The id is past the latest seq known (a daemon that restarted, a made-up id): `reset`
    /// and a fresh snapshot.
    case reset
  }

  /// The most entries kept.
  public let capacity: Int
  /// The most bytes kept (the newest entry is kept whatever its size).
  public let byteLimit: Int
  /// Every change with a seq above `base` is kept, and every event after it.
  public private(set) var base: UInt64
  /// The seq of the latest change appended (or the base of the latest rebase).
  public private(set) var latestSeq: UInt64
  /// The position of the oldest entry kept.
  public private(set) var start: UInt64 = 0
  /// The position of the first entry of the current epoch: those before it were appended
  /// before the daemon's sequence numbers started again.
  public private(set) var epochStart: UInt64 = 0
  /// The bytes of the entries kept.
  public private(set) var byteCount = 0
  /// The entries kept from `head` on (the ones before it are dropped, and cut away in bulk).
  private var storage: [Entry] = []
  private var head = 0

  public static let defaultCapacity = 4096
  public static let defaultByteLimit = 1 << 20

  /// An empty ring whose changes start after `base` (the seq of the feed's first snapshot).
  public init(base: UInt64 = 0, capacity: Int = defaultCapacity, byteLimit: Int = defaultByteLimit) {
    precondition(capacity >= 1 && byteLimit >= 1, "a ring keeps at least one entry")
    self.base = base
    self.latestSeq = base
    self.capacity = capacity
    self.byteLimit = byteLimit
  }

  /// The entries kept.
  public var count: Int { storage.count - head }
  /// The position after the newest entry: where a client that just got a snapshot reads on.
  public var end: UInt64 { start + UInt64(count) }

  /// The entry at `position`, if it is kept.
  public func entry(at position: UInt64) -> Entry? {
    guard position >= start, position < end else { return nil }
    return storage[head + Int(position - start)]
  }

  /// Appends a change with its seq. A seq not above `latestSeq` is refused (`false`, nothing
  /// appended): the feed then starts a new epoch with `rebase`.
  @discardableResult
  public mutating func appendChange(seq: UInt64, channel: ChannelName?, bytes: [UInt8]) -> Bool {
    guard seq > latestSeq else { return false }
    latestSeq = seq
    push(Entry(key: seq, isChange: true, channel: channel, bytes: bytes))
    return true
  }

  /// Appends an event that is not a change (a pulse's end, dnd, offline), keyed by the latest
  /// change.
  public mutating func appendEvent(channel: ChannelName?, bytes: [UInt8]) {
    push(Entry(key: latestSeq, isChange: false, channel: channel, bytes: bytes))
  }

  /// Starts a new epoch at `base` after the daemon answered `OK watching reset` (it restarted,
  /// or the feed was away too long): `bytes` (the `reset` event and the new snapshot) are
  /// appended for the clients reading along; a client resuming goes by the new numbers only.
  public mutating func rebase(to base: UInt64, bytes: [UInt8]) {
    epochStart = end
    self.base = base
    latestSeq = base
    push(Entry(key: base, isChange: false, channel: nil, bytes: bytes))
  }

  /// Copies the entries from `cursor` on, whole, that `accepts` (every one when `nil`), until
  /// `maxBytes` would be passed; the first pending entry is copied whatever its size, so a
  /// reader always advances (the caller keeps what its buffer did not take).
  public func read(from cursor: UInt64, upTo maxBytes: Int, accepts: ((Entry) -> Bool)? = nil) -> Read {
    guard cursor >= start else { return .fellBehind }
    var bytes: [UInt8] = []
    var position = min(cursor, end)
    while position < end {
      let entry = storage[head + Int(position - start)]
      if accepts?(entry) ?? true {
        if !bytes.isEmpty && bytes.count + entry.bytes.count > maxBytes { break }
        bytes += entry.bytes
      }
      position += 1
    }
    return .events(bytes, next: position)
  }

  /// Copies the entries of the channels `patterns` match (all when empty) and the events of
  /// every client.
  public func read(from cursor: UInt64, upTo maxBytes: Int, patterns: [ChannelPattern]) -> Read {
    guard !patterns.isEmpty else { return read(from: cursor, upTo: maxBytes) }
    return read(from: cursor, upTo: maxBytes) { entry in
      guard let channel = entry.channel else { return true }
      return patterns.contains { $0.matches(channel) }
    }
  }

  /// Where a client whose last change had seq `id` reads on: the first entry of the epoch
  /// with a key above `id`, or with `id` and not a change (what came after that change).
  public func position(resumingAfter id: UInt64) -> Resume {
    if id > latestSeq { return .reset }
    if id < base { return .needsReplay }
    var low = max(start, epochStart)
    var high = end
    while low < high {
      let middle = low + (high - low) / 2
      if storage[head + Int(middle - start)].key < id { low = middle + 1 } else { high = middle }
    }
    if let entry = entry(at: low), entry.key == id, entry.isChange { low += 1 }
    return .at(low)
  }

  /// Appends `entry` and drops the oldest entries past the limits, raising `base` past them:
  /// a dropped change takes its seq with it; a dropped other event takes its key's too (a
  /// client that resumes at that seq would miss it, so it is replayed).
  private mutating func push(_ entry: Entry) {
    storage.append(entry)
    byteCount += entry.bytes.count
    while count > 1 && (count > capacity || byteCount > byteLimit) {
      let dropped = storage[head]
      if start >= epochStart {
        base = max(base, dropped.isChange ? dropped.key : dropped.key + 1)
      }
      byteCount -= dropped.bytes.count
      head += 1
      start += 1
    }
    if head > 64 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }
}
