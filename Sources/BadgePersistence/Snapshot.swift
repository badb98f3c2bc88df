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

  public init(
    seq: UInt64, channels: [ChannelRecord], days: [DayRecord] = [], dndUntil: UInt64? = nil,
    requestIDs: [RequestID] = []
  ) {
    self.seq = seq
    self.channels = channels
    self.days = days
    self.dndUntil = dndUntil
    self.requestIDs = requestIDs
  }

  /// The store's persistent state: channels with a count, a running total or a setting made
  /// over the socket (a channel at 0 with neither reads the same as one never written; one
  /// that a config section keeps keeps its total), do-not-disturb with its end as `dndUntil`
  /// gives it (the store's clock is monotonic), and the request ids.
  public init(of store: Store, dndUntil: UInt64? = nil) {
    seq = store.seq
    channels = store.channels
      .filter { $0.count > 0 || $0.total > 0 || $0.hasOverride }
      .map { ChannelRecord($0) }
    let history = store.history
    days = history.names.flatMap { name in
      history.days(of: name).map { DayRecord(name: name, entry: $0, seq: 0) }
    }
    self.dndUntil = dndUntil
    requestIDs = store.requestIDs.inOrder
  }

  /// The snapshot file's bytes.
  public func encoded() -> [UInt8] {
    var out = RecordFile.header(magic: RecordFile.snapshotMagic)
    out.reserveCapacity(out.count + 32 + channels.count * 48 + days.count * 56 + requestIDs.count * 41)
    RecordCodec.append(.snapshotStart(seq: seq), to: &out)
    if dndUntil != nil { RecordCodec.append(.doNotDisturb(until: dndUntil), to: &out) }
    for channel in channels { RecordCodec.append(.channel(channel), to: &out) }
    for day in days { RecordCodec.append(.day(day), to: &out) }
    for id in requestIDs { RecordCodec.append(.requestID(SavedRequestID(seq: 0, id: id)), to: &out) }
    RecordCodec.append(.snapshotEnd(channels: channels.count, days: days.count, ids: requestIDs.count), to: &out)
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
      case .snapshotStart(let seq) where i == 0: snapshot.seq = seq
      case .channel(let channel) where i > 0 && !ended: snapshot.channels.append(channel)
      case .doNotDisturb(let until, _) where i > 0 && !ended: snapshot.dndUntil = until
      case .day(let day) where i > 0 && !ended: snapshot.days.append(day)
      case .requestID(let saved) where i > 0 && !ended: snapshot.requestIDs.append(saved.id)
      case .snapshotEnd(let count, let days, let ids) where !ended:
        ended = true
        if count != snapshot.channels.count {
          problem = "it ends after \(snapshot.channels.count) of \(count) channels"
        } else if days != snapshot.days.count {
          problem = "it ends after \(snapshot.days.count) of \(days) days of history"
        } else if ids != snapshot.requestIDs.count {
          problem = "it ends after \(snapshot.requestIDs.count) of \(ids) request ids"
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
