import BadgeCore

/// A whole state: the sequence number, every channel worth keeping, the kept history and the
/// saved request ids.
public struct Snapshot: Equatable, Sendable {
  public var seq: UInt64
  public var channels: [ChannelRecord]
  /// Every kept day of every channel with history, by name and then day.
  public var days: [DayRecord]
  /// Do-not-disturb, as `Record.doNotDisturb` writes it; `nil` when off.
  public var dndUntil: UInt64?
  /// The saved request ids, oldest first.
  public var requestIDs: [RequestID]
  /// Where and when do-not-disturb last changed, when known.
  public var dndStamp: DNDStamp?
  /// The writes to mirrored channels waiting for their owners, oldest first.
  public var forwards: [ForwardEntry]
  /// How the outbox numbers ids: the state folder's epoch (0: none yet) and the next counter.
  public var forwardEpoch: UInt64
  public var forwardNext: UInt64
  /// The store's `totalFloor`: the largest total of a channel forgotten (0 in a snapshot
  /// written before floors).
  public var totalFloor: Int

  public init(
    seq: UInt64, channels: [ChannelRecord], days: [DayRecord] = [], dndUntil: UInt64? = nil,
    requestIDs: [RequestID] = [], dndStamp: DNDStamp? = nil, forwards: [ForwardEntry] = [], forwardEpoch: UInt64 = 0,
    forwardNext: UInt64 = 1, totalFloor: Int = 0
  ) {
    self.seq = seq
    self.channels = channels
    self.days = days
    self.dndUntil = dndUntil
    self.requestIDs = requestIDs
    self.dndStamp = dndStamp
    self.forwards = forwards
    self.forwardEpoch = forwardEpoch
    self.forwardNext = forwardNext
    self.totalFloor = totalFloor
  }

  /// The store's persistent state: channels with a count, a running total or a setting made
  /// over the socket (a channel at 0 with neither reads the same as one never written; one
  /// that a config section keeps keeps its total, and is kept at total 0 too once the floor is
  /// above it, since loading lifts a channel it does not hold to the floor), the total floor,
  /// do-not-disturb with its end as `dndUntil` gives it (the store's clock is monotonic), and
  /// the request ids.
  public init(of store: Store, dndUntil: UInt64? = nil) {
    seq = store.seq
    let floor = store.totalFloor
    totalFloor = floor
    channels = store.channels
      .filter { $0.count > 0 || $0.total > 0 || $0.total < floor || $0.hasOverride || $0.mirror != nil }
      .map { ChannelRecord($0) }
    let history = store.history
    days = history.names.flatMap { name in
      history.days(of: name).map { DayRecord(name: name, entry: $0, seq: 0) }
    }
    self.dndUntil = dndUntil
    requestIDs = store.requestIDs.inOrder
    dndStamp = store.dndStamp
    forwards = store.outbox.entries.map { entry in
      var kept = entry
      kept.seq = 0
      return kept
    }
    forwardEpoch = store.outbox.epoch
    forwardNext = store.outbox.nextCounter
  }

  /// The snapshot file's bytes.
  public func encoded() -> [UInt8] {
    var out = RecordFile.header(magic: RecordFile.snapshotMagic)
    out.reserveCapacity(out.count + 32 + channels.count * 48 + days.count * 56 + requestIDs.count * 41)
    RecordCodec.append(.snapshotStart(seq: seq, totalFloor: totalFloor), to: &out)
    if dndUntil != nil || dndStamp != nil {
      RecordCodec.append(.doNotDisturb(until: dndUntil, stamp: dndStamp), to: &out)
    }
    // Written whenever it says more than a new folder's defaults: a journal's forwarded writes
    // may have moved the counter before an epoch was drawn.
    if forwardEpoch != 0 || forwardNext != 1 {
      RecordCodec.append(.forwardIDs(epoch: forwardEpoch, next: forwardNext), to: &out)
    }
    for channel in channels { RecordCodec.append(.channel(channel), to: &out) }
    for day in days { RecordCodec.append(.day(day), to: &out) }
    for id in requestIDs { RecordCodec.append(.requestID(SavedRequestID(seq: 0, id: id)), to: &out) }
    for entry in forwards { RecordCodec.append(.forward(entry), to: &out) }
    RecordCodec.append(
      .snapshotEnd(channels: channels.count, days: days.count, ids: requestIDs.count, forwards: forwards.count),
      to: &out)
    return out
  }

  /// What a snapshot file holds.
  public struct Decoded: Equatable, Sendable {
    /// What could be read: the whole snapshot, or its good part when damaged.
    public var snapshot: Snapshot
    /// Why the file is not a whole snapshot, if it is not.
    public var problem: String?
  }

  /// Reads a snapshot file. A damaged file yields its valid channels and a problem.
  public static func decode(_ bytes: [UInt8]) -> Decoded {
    let contents = RecordFile.scan(bytes, magic: RecordFile.snapshotMagic)
    var snapshot = Snapshot(seq: 0, channels: [])
    var ended = false
    var problem: String?
    for (i, record) in contents.records.enumerated() {
      switch record {
      case .snapshotStart(let seq, let totalFloor) where i == 0:
        snapshot.seq = seq
        snapshot.totalFloor = totalFloor
      case .channel(let channel) where i > 0 && !ended: snapshot.channels.append(channel)
      case .doNotDisturb(let until, _, let stamp) where i > 0 && !ended:
        snapshot.dndUntil = until
        snapshot.dndStamp = stamp
      case .forwardIDs(let epoch, let next) where i > 0 && !ended:
        snapshot.forwardEpoch = epoch
        snapshot.forwardNext = next
      case .forward(let entry) where i > 0 && !ended: snapshot.forwards.append(entry)
      case .day(let day) where i > 0 && !ended: snapshot.days.append(day)
      case .requestID(let saved) where i > 0 && !ended: snapshot.requestIDs.append(saved.id)
      case .snapshotEnd(let count, let days, let ids, let forwards) where !ended:
        ended = true
        if count != snapshot.channels.count {
          problem = "it ends after \(snapshot.channels.count) of \(count) channels"
        } else if days != snapshot.days.count {
          problem = "it ends after \(snapshot.days.count) of \(days) days of history"
        } else if ids != snapshot.requestIDs.count {
          problem = "it ends after \(snapshot.requestIDs.count) of \(ids) request ids"
        } else if forwards != snapshot.forwards.count {
          problem = "it ends after \(snapshot.forwards.count) of \(forwards) forwarded writes"
        }
      default:
        problem = problem ?? "its records are out of order"
      }
      // The sequence number never goes below any channel's, even if the start record was lost.
      if case .channel(let channel) = record { snapshot.seq = max(snapshot.seq, channel.seq) }
    }
    if let damage = contents.damage {
      switch damage {
      case .badHeader: problem = "it is not a badged snapshot"
      case .corrupt(let offset, let reason): problem = problem ?? "damage at byte \(offset): \(reason)"
      case .tornTail(let offset, _):
        problem =
          problem ?? (ended ? "unexpected bytes after its end, at byte \(offset)" : "it is cut short at byte \(offset)")
      }
    } else if bytes.isEmpty {
      problem = "it is empty"
    } else if !ended {
      problem = problem ?? "it ends before its last record"
    }
    return Decoded(snapshot: snapshot, problem: problem)
  }
}
