import BadgeConfig
import BadgeCore
import BadgeLog
import BadgePersistence
import BadgeServer
import BadgeSystem
import Glibc

/// Keeps the store on disk in the state folder: `journal`, an append-only record of every
/// change, and `snapshot`, the whole state at the last compaction.
///
/// The promise: a change whose reply was sent is in the journal (and, with `sync = always`,
/// on disk), so it survives a crash and a restart; nothing is ever loaded that was not a
/// change. Compaction writes the snapshot to a temporary file, flushes it, renames it into
/// place and flushes the folder before it starts a new journal, so a crash at any point
/// leaves files that load to the same counts: records a snapshot already covers are skipped
/// by their sequence numbers.
///
/// With `always` the journal keeps room ahead of its end (`AppendOnlyFile.makeRoom`): zeros
/// written and flushed a chunk at a time, so that each turn's flush carries its records alone
/// and not also the file's new length. Each start and each compaction begins a new journal, so
/// a journal's room is never reopened: loading reads it as room, not damage.
final class Persistence: ChangeLog {
  /// The room made at a time: each chunk costs one turn a write of this many zeros and a flush
  /// of the file's new length; the file on disk holds up to this much past its records.
  static let roomChunk = 1 << 20

  static let journalName = "journal"
  static let snapshotName = "snapshot"

  let journalPath: String
  let snapshotPath: String
  var sync: SyncMode
  /// The room made at a time with `always` (`roomChunk`; smaller in tests).
  private let roomChunk: Int
  /// Whether making room in this journal failed (a full disk, a file size limit): it then
  /// grows by appends, which save what still fits, until a compaction starts the next one.
  private var roomFailed = false
  /// Whether the daemon said so: once a life.
  private var roomWarned = false
  private let store: Store
  private let logger: Logger
  private let loop: EventLoop
  private var journal: AppendOnlyFile
  /// Records of this loop turn, written together by `commit()`.
  private var pending: [UInt8] = []
  /// With `everysec`: written but not yet flushed.
  private var unflushed = false
  /// Flushes a second after the first unflushed write (`everysec`); disarmed otherwise, so an
  /// idle daemon is never woken.
  private var flushTimer: TimerSource?
  /// Runs the `everysec` flush off the loop thread: a flush that waits for a busy disk would
  /// otherwise hold every client's reply for as long.
  private var backgroundFlush: BackgroundFlush?
  private var snapshotSize: Int
  /// Held while the daemon runs: two daemons must never write one state folder.
  private let lock: FolderLock
  /// Whether `journal` is the file at `journalPath`, whole: false from the start of a
  /// compaction until it succeeds, so nothing is appended to a file a failed compaction may
  /// have replaced (or half replaced) on disk.
  private var journalIsCurrent = true
  /// Told when storing fails outside `commit()`: a deferred flush, or a compaction after the
  /// turn's records were saved (the core sets it when it takes the change log).
  var failures: StorageFailurePolicy?
  /// Why the state folder is not compacted, while it is not: the start could not write a
  /// fresh snapshot (a full disk) and serves from the journal it loaded, appending to it.
  /// `nil` once a compaction succeeded. What `systemctl status` shows beside the counts.
  private(set) var compactionOwed: String?
  /// Tries the compaction owed again every `compactionRetryInterval`.
  private var compactionTimer: TimerSource?
  /// How long after a failed compaction the owed one is tried again (microseconds): a try
  /// on a full disk writes what fits of a snapshot, then gives it back.
  static let compactionRetryInterval: UInt64 = 5_000_000

  /// The journal is compacted once its records (not its room) are larger than this: at least
  /// 4 MiB, and at least twice the snapshot, so that compaction costs stay proportional to the
  /// changes they absorb.
  var compactionThreshold: Int { max(4 << 20, 2 * snapshotSize) }

  /// Creates the state folder (mode 0700) if needed, loads it into `store` (snapshot, then the
  /// journal's later records), reports any damage, and starts a fresh snapshot and journal.
  ///
  /// - Throws: `SystemError` when the folder cannot be created, read or written: the daemon
  ///   must not start then, as it could not keep its promise.
  init(
    folder: String, store: Store, sync: SyncMode, loop: EventLoop, logger: Logger,
    roomChunk: Int = Persistence.roomChunk
  ) throws(SystemError) {
    journalPath = folder + "/" + Persistence.journalName
    snapshotPath = folder + "/" + Persistence.snapshotName
    self.store = store
    self.sync = sync
    self.roomChunk = roomChunk
    self.loop = loop
    self.logger = logger
    pending.reserveCapacity(4096)
    try FileSystem.makeFolder(folder, mode: 0o700)
    lock = try FolderLock(folder + "/lock")
    store.setForwardIDs(host: Environment.hostName, epoch: 0)
    let dnd = try Recovery.load(snapshot: snapshotPath, journal: journalPath, into: store, logger: logger)
    store.setDND(Persistence.monotonic(dnd, now: loop.now))
    // The state folder's epoch is drawn once, when the folder has none; the fresh snapshot
    // below keeps it.
    let drawnEpoch = store.outbox.epoch == 0
    if drawnEpoch {
      store.setForwardIDs(host: store.outbox.host, epoch: UInt64.random(in: 1...UInt64(UInt32.max)))
    }
    store.finishRestoringMirrors(since: Int(Environment.wallClockMicroseconds / 1_000_000))
    do {
      (journal, snapshotSize) = try Persistence.writeFreshFiles(
        of: store, snapshot: snapshotPath, journal: journalPath, now: loop.now)
    } catch {
      // A daemon that ran on a full disk must start there again with what it acknowledged:
      // serve from the files as they are, and compact once there is room.
      guard !drawnEpoch, let reopened = Persistence.reopenJournal(journalPath) else { throw error }
      journal = reopened
      snapshotSize = 0  // not read while the compaction is owed: it is retried on a timer
      compactionOwed = "not compacted: \(error)"
      logger.warning(
        "Cannot write a fresh snapshot at start (\(error)); serving from the journal as loaded and appending to "
          + "it, compacting once there is room.")
    }
    makeRoom(for: roomChunk - journal.size)
    flushTimer = try loop.addTimer(accuracy: 50_000) { [unowned self] in flushDeferred() }
    backgroundFlush = try BackgroundFlush(loop: loop) { [unowned self] error in deferredFlushFinished(error) }
    if compactionOwed != nil {
      compactionTimer = try loop.addTimer(accuracy: 500_000) { [unowned self] in retryOwedCompaction() }
      compactionTimer?.schedule(at: loop.now + Persistence.compactionRetryInterval)
    }
  }

  /// The journal at `path` opened to append after its last whole record, when it loads
  /// without damage but perhaps a torn tail (which loading dropped, and which is cut off here
  /// with any room past the records); `nil` otherwise.
  private static func reopenJournal(_ path: String) -> AppendOnlyFile? {
    guard let bytes = try? StateFiles.read(path) else { return nil }
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    switch contents.damage {
    case nil, .tornTail: break
    case .corrupt, .badHeader: return nil
    }
    guard contents.validLength >= RecordFile.journalMagic.count, let file = try? AppendOnlyFile(path: path) else {
      return nil
    }
    file.truncate(to: contents.validLength)
    guard file.size == contents.validLength else { return nil }
    return file
  }

  /// The compaction owed since the start, tried again; on failure the journal goes on taking
  /// changes as long as the failure left it whole (the snapshot could not be written), and
  /// the next try is due later.
  private func retryOwedCompaction() {
    guard compactionOwed != nil else { return }
    do {
      try compact()
      logger.notice("Compacted the state folder: there is room again.")
    } catch {
      compactionOwed = "not compacted: \(error)"
      guard journalIsCurrent else {
        failedOutsideCommit(error)
        return
      }
      logger.debug("Still cannot compact the state folder: \(error).")
      compactionTimer?.schedule(at: loop.now + Persistence.compactionRetryInterval)
    }
  }

  // MARK: - ChangeLog

  /// One record: the channel with its day of history as the change left it (a settings change
  /// rewrites the day unchanged, which replays the same), and the id of the request that made
  /// it. A power cut keeps or loses them together, so it never loads a count without its
  /// history, nor an id without its change.
  func record(_ channel: Channel, day: HistoryDay?, id: RequestID?, forward: Forwarded?) {
    RecordCodec.append(channel, day: day, id: id, forward: forward, to: &pending)
  }

  func record(_ dnd: DoNotDisturb, id: SavedRequestID?) {
    RecordCodec.append(
      .doNotDisturb(until: Persistence.wallClock(dnd, now: loop.now), id: id, stamp: store.dndStamp), to: &pending)
  }

  func recordDelivered(_ id: String) {
    RecordCodec.append(.delivered(id: id), to: &pending)
  }

  func record(_ id: SavedRequestID) {
    RecordCodec.append(.requestID(id), to: &pending)
  }

  /// Do-not-disturb as the files keep it: `nil` when off, 0 when on until turned off, else its
  /// end on the wall clock (the monotonic clock starts again at boot).
  static func wallClock(_ dnd: DoNotDisturb, now: UInt64) -> UInt64? {
    guard dnd.isOn else { return nil }
    guard dnd.until > 0 else { return 0 }
    return Environment.wallClockMicroseconds + (dnd.until > now ? dnd.until - now : 0)
  }

  /// The state a stored do-not-disturb stands for at `now` (monotonic): off once its end passed.
  static func monotonic(_ until: UInt64?, now: UInt64) -> DoNotDisturb {
    guard let until else { return .off }
    guard until > 0 else { return DoNotDisturb(isOn: true, until: 0) }
    let wallNow = Environment.wallClockMicroseconds
    guard until > wallNow else { return .off }
    return DoNotDisturb(isOn: true, until: now + (until - wallNow))
  }

  /// Writes this turn's records; with `always` also flushes them, before any reply goes out,
  /// into room made ahead: the turn whose records do not fit in the room makes the next chunk
  /// first (one more write and flush, once a chunk). The other modes fill what room there is
  /// (left by a reload from `always`) and then append: their flushes are a second apart or
  /// none, so a change of length costs them next to nothing.
  /// A compaction that follows and fails does not undo the records (they are on disk, in the
  /// old journal or in the new snapshot) but is reported to `failures`.
  func commit() throws(SystemError) {
    guard !pending.isEmpty else { return }
    defer { pending.removeAll(keepingCapacity: true) }
    guard journalIsCurrent else {
      throw SystemError("append to '\(journalPath)' (not reopened since a failed compaction)", Errno(rawValue: EIO))
    }
    let before = journal.size
    do {
      makeRoom(for: pending.count)
      try journal.append(pending)
      if sync == .always { try journal.flush() }
    } catch {
      journal.truncate(to: before)  // never leave half a record for the next append to follow
      throw error
    }
    if sync == .everysec && !unflushed {
      unflushed = true
      flushTimer?.schedule(at: loop.now + 1_000_000)
    }
    if journal.size > compactionThreshold && compactionOwed == nil {
      do {
        try compact()
      } catch {
        failedOutsideCommit(error)
      }
    }
  }

  /// Writes the whole state to a new snapshot and starts an empty journal, with its first
  /// chunk of room when `sync` is `always` and `makingRoom` (not at shutdown: nothing follows).
  /// Until every step succeeded, nothing more is appended (`commit` throws).
  /// A snapshot that cannot be written leaves the journal whole and current: it still holds
  /// every change the old snapshot does not.
  func compact(makingRoom: Bool = true) throws(SystemError) {
    backgroundFlush?.wait()  // never replace the journal while a flush of it is in flight
    let size = try Persistence.writeSnapshot(of: store, to: snapshotPath, now: loop.now)
    journalIsCurrent = false
    let fresh = try Persistence.startJournal(at: journalPath)
    journal.close()
    journal = fresh
    roomFailed = false
    if makingRoom { makeRoom(for: roomChunk - journal.size) }
    journalIsCurrent = true
    snapshotSize = size
    compactionOwed = nil
    unflushed = false
    flushTimer?.disarm()
  }

  /// The snapshot of `store` (its history pruned to the kept days first), then an empty
  /// journal, each replaced crash-safely and in this order: once the snapshot is on disk, the
  /// old journal's records are all covered by it. Returns the new journal, open for appending,
  /// and the snapshot's size.
  private static func writeFreshFiles(
    of store: Store, snapshot: String, journal: String, now: UInt64
  ) throws(SystemError) -> (AppendOnlyFile, Int) {
    let size = try writeSnapshot(of: store, to: snapshot, now: now)
    return (try startJournal(at: journal), size)
  }

  /// The snapshot of `store`, its history pruned to the kept days first, replaced
  /// crash-safely; its size.
  private static func writeSnapshot(of store: Store, to path: String, now: UInt64) throws(SystemError) -> Int {
    store.pruneHistory()
    let bytes = Snapshot(of: store, dndUntil: wallClock(store.dnd, now: now)).encoded()
    try StateFiles.replace(path, with: bytes)
    return bytes.count
  }

  /// An empty journal in place of the one at `path`, open for appending.
  private static func startJournal(at path: String) throws(SystemError) -> AppendOnlyFile {
    try StateFiles.replace(path, with: RecordFile.header(magic: RecordFile.journalMagic))
    return try AppendOnlyFile(path: path)
  }

  /// With `always`, makes sure the journal's room holds `count` more bytes (a chunk is made
  /// when it does not). A new journal gets its first chunk when it is made, at start and at
  /// each compaction, which wait for several flushes already, so the first turns of changes
  /// need not. Room is what makes a flush cheaper, not what saves a change: when it cannot be
  /// made, the journal grows by appends (which save what still fits; a write that does not
  /// fails the turn as before), with one warning.
  private func makeRoom(for count: Int) {
    guard sync == .always, !roomFailed else { return }
    do {
      try journal.makeRoom(for: count, chunk: roomChunk)
    } catch {
      roomFailed = true
      if !roomWarned {
        roomWarned = true
        logger.warning("Cannot make room ahead in the journal (\(error)); appending without it.")
      }
    }
  }

  /// After a failed commit: a compaction writes the whole state, including the changes whose
  /// records were lost, and starts a clean journal.
  func repair() throws(SystemError) {
    try compact()
  }

  /// Shutdown: the last records, then a compaction so the next start reads one snapshot. When
  /// the snapshot cannot be written (a full disk), the journal, flushed, keeps every change,
  /// and the next start compacts.
  func close() throws(SystemError) {
    try commit()
    do {
      try compact(makingRoom: false)
    } catch {
      guard journalIsCurrent else { throw error }
      backgroundFlush?.wait()
      try journal.flush()
      logger.warning("Cannot compact the state folder at shutdown (\(error)); the journal keeps every change.")
    }
    journal.close()
  }

  /// The `everysec` flush, started on the background thread (on the loop thread if that
  /// cannot start). While the previous one is still in flight it starts when that finishes.
  private func flushDeferred() {
    guard unflushed, let backgroundFlush, !backgroundFlush.isRunning else { return }
    unflushed = false
    do {
      try backgroundFlush.start(journal)
    } catch {
      do {
        try journal.flush()
      } catch {
        failedOutsideCommit(error)
      }
    }
  }

  /// A background flush finished. Its failure is reported to `failures`: the changes since the
  /// last flush were acknowledged, so the repair (a compaction) must put them on disk. Changes
  /// written meanwhile whose flush came due are flushed next turn (not from here: this also
  /// runs inside a compaction, which must not start a flush).
  private func deferredFlushFinished(_ error: SystemError?) {
    if let error { failedOutsideCommit(error) }
    if unflushed && flushTimer?.deadline == nil { flushTimer?.schedule(at: loop.now) }
  }

  /// Storing failed after the changes it concerned were acknowledged: they stay in memory, and
  /// the failure policy refuses changes until a repair saves them.
  private func failedOutsideCommit(_ error: SystemError) {
    failures?.failed(error, "changes already acknowledged are kept in memory.")
  }
}
