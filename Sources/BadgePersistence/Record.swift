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
  /// Snapshot header: the sequence number the snapshot is complete up to.
  case snapshotStart(seq: UInt64)
  /// One channel's figures for one day, whole: replaying it is idempotent too.
  case day(DayRecord)
  /// Snapshot trailer: how many channel, day and request id records came before it, so
  /// truncation is detected. (Files written before history have no day count, those before
  /// request ids no id count: each reads as 0.)
  case snapshotEnd(channels: Int, days: Int = 0, ids: Int = 0)
  /// Do-not-disturb after a change: off (`nil`), on until turned off (0), or on until a wall-clock
  /// time (microseconds since the epoch: the monotonic clock starts again at boot); with the id
  /// of the request that changed it, if it had one, so that a power cut keeps or loses both.
  case doNotDisturb(until: UInt64?, id: SavedRequestID? = nil)
  /// A request id saved without a change to ride in (a request that changed nothing, or
  /// several channels), in the journal; in the snapshot, each id kept, oldest first (`seq` 0).
  case requestID(SavedRequestID)

  enum Kind: UInt8 {
    case channel = 1
    case snapshotStart = 2
    case snapshotEnd = 3
    case day = 4
    case doNotDisturb = 5
    case requestID = 6
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

  public init(
    name: ChannelName, count: Int, unseen: Int? = nil, total: Int? = nil, override: SettingsOverride,
    seq: UInt64, day: HistoryDay? = nil, id: RequestID? = nil
  ) {
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
      override: channel.override, seq: channel.seq, day: day, id: id)
  }
}

/// The limits a reader checks before trusting a frame.
enum RecordLimits {
  /// The frame header: length and checksum.
  static let headerSize = 8
  /// The largest payload written today is under 200 bytes; anything far larger is damage.
  static let maxPayload = 1024
}
