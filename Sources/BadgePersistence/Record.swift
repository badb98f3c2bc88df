import BadgeCore

/// One record of the journal or the snapshot.
///
/// On disk each record is framed as `u32 length | u32 crc32(payload) | payload` (little
/// endian), so a torn or damaged record is detected; the payload starts with a kind byte, so
/// later versions can add kinds that older ones reject loudly rather than misread (per-day
/// history was added that way, as kind 4, do-not-disturb as kind 5 and request ids as kind 6).
public enum Record: Equatable, Sendable {
  /// A channel's whole persistent state after a change: replaying it is idempotent.
  case channel(ChannelRecord)
  /// Snapshot header: the sequence number the snapshot is complete up to, and the store's
  /// `totalFloor` (a header written before it has none: 0).
  case snapshotStart(seq: UInt64, totalFloor: Int = 0)
  /// One channel's figures for one day, whole: replaying it is idempotent too.
  case day(DayRecord)
  /// Snapshot trailer: how many channel, day and request id records came before it, so
  /// truncation is detected. (Files written before history have no day count, those before
  /// request ids no id count: each reads as 0.)
  case snapshotEnd(channels: Int, days: Int = 0, ids: Int = 0, forwards: Int = 0)
  /// Do-not-disturb after a change: off (`nil`), on until turned off (0), or on until a wall-clock
  /// time (microseconds since the epoch: the monotonic clock starts again at boot); with the id
  /// of the request that changed it, if it had one, so that a power cut keeps or loses both.
  /// With where and when it changed (`stamp`), when known: the newest change wins between
  /// machines, so the stamp is kept across restarts, off included.
  case doNotDisturb(until: UInt64?, id: SavedRequestID? = nil, stamp: DNDStamp? = nil)
  /// A request id saved without a change to ride in (a request that changed nothing, or
  /// several channels), in the journal; in the snapshot, each id kept, oldest first (`seq` 0).
  case requestID(SavedRequestID)
  /// A write to a mirrored channel waiting in the forward outbox, in the snapshot: each, oldest
  /// first (in the journal a write rides in its change's channel record).
  case forward(ForwardEntry)
  /// A write taken out of the forward outbox (`DELIVERED`), in the journal.
  case delivered(id: String)
  /// How the outbox numbers its ids: the state folder's epoch and the next counter, in the
  /// snapshot (so ids are never handed out twice, even with the outbox empty).
  case forwardIDs(epoch: UInt64, next: UInt64)

  enum Kind: UInt8 {
    case channel = 1
    case snapshotStart = 2
    case snapshotEnd = 3
    case day = 4
    case doNotDisturb = 5
    case requestID = 6
    case forward = 7
    case delivered = 8
    case forwardIDs = 9
  }
}

/// What persists of one channel's day: the figures and the count it ended with so far, and
/// the sequence number of the change that last touched it (so a snapshot that covers it makes
/// the journal's copy redundant).
public struct DayRecord: Equatable, Sendable {
  public var name: ChannelName
  public var entry: HistoryDay
  public var seq: UInt64

  public init(name: ChannelName, entry: HistoryDay, seq: UInt64) {
    self.name = name
    self.entry = entry
    self.seq = seq
  }
}

/// What persists of one channel: its count, unseen items and running total, the settings made
/// over the socket, and the sequence number of its last change. Config-file settings and pulse
/// windows are not stored.
public struct ChannelRecord: Equatable, Sendable {
  public var name: ChannelName
  public var count: Int
  /// The unseen items; a record written before `unseen` existed reads as all unseen.
  public var unseen: Int
  /// The running total; a record written before totals existed reads as its count.
  public var total: Int
  public var override: SettingsOverride
  public var seq: UInt64
  /// The channel's day of history as the change left it, in the journal's records (the
  /// snapshot keeps days as records of their own). Journals written before it came have a day
  /// record before each channel record instead, which still load.
  public var day: HistoryDay?
  /// The id of the request that made the change, in the journal's records: saved with the
  /// change, so a power cut keeps or loses the two together.
  public var id: RequestID?
  /// For a channel mirrored from another machine: its owner and staleness (`pending` is not
  /// kept: it is derived from the outbox when loading).
  public var mirror: MirrorState?
  /// The write to forward to the channel's owner that the change put in the outbox, in the
  /// journal's records: saved with the change, so a power cut keeps or loses the two together.
  public var forward: ForwardEntry?

  public init(
    name: ChannelName, count: Int, unseen: Int? = nil, total: Int? = nil, override: SettingsOverride,
    seq: UInt64, day: HistoryDay? = nil, id: RequestID? = nil, mirror: MirrorState? = nil,
    forward: ForwardEntry? = nil
  ) {
    self.forward = forward
    self.mirror = mirror.map { MirrorState(owner: $0.owner, stale: $0.stale, since: $0.since, ownerSeq: $0.ownerSeq) }
    self.name = name
    self.count = count
    self.unseen = unseen ?? count
    self.total = total ?? count
    self.override = override
    self.seq = seq
    self.day = day
    self.id = id
  }

  public init(_ channel: Channel, day: HistoryDay? = nil, id: RequestID? = nil) {
    self.init(
      name: channel.name, count: channel.count, unseen: channel.unseen, total: channel.total,
      override: channel.override, seq: channel.seq, day: day, id: id, mirror: channel.mirror)
  }
}

/// The limits a reader checks before trusting a frame.
enum RecordLimits {
  /// The frame header: length and checksum.
  static let headerSize = 8
  /// The largest payload written today is under 200 bytes; anything far larger is damage.
  static let maxPayload = 1024
}
