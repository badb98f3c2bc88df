import BadgeCore
import BadgeLog
import BadgePersistence
import BadgeSystem

/// Loading the state folder at start, and saying plainly what was wrong with it.
///
/// Public and free of the event loop so that the fuzz target (Tests/Fuzz) and the
/// crash-consistency check can run exactly the loading the daemon runs.
public enum Recovery {
  /// Loads the state folder's `snapshot`, then the `journal`'s later records, into `store`,
  /// after removing what a compaction cut short by a crash left (`*.tmp`). Damage is logged
  /// and a copy of a damaged file is kept beside it; what could be read is loaded.
  ///
  /// - Returns: the do-not-disturb the files hold, as `Record.doNotDisturb` writes it (`nil`:
  ///   off); the caller puts it in force, since only it knows the clocks.
  /// - Throws: `SystemError` when a file cannot be read or the copy cannot be written.
  @discardableResult
  public static func load(
    snapshot snapshotPath: String, journal journalPath: String, into store: Store, logger: Logger
  ) throws(SystemError) -> UInt64? {
    for path in [snapshotPath, journalPath] {
      FileSystem.remove(path + ".tmp")
    }
    let (snapshotSeq, snapshotDND) = try loadSnapshot(at: snapshotPath, into: store, logger: logger)
    let journalDND = try replayJournal(at: journalPath, after: snapshotSeq, into: store, logger: logger)
    return journalDND ?? snapshotDND
  }

  /// Loads the snapshot into `store`; returns the sequence number it covers (0 without one) and
  /// the do-not-disturb it holds.
  static func loadSnapshot(
    at path: String, into store: Store, logger: Logger
  ) throws(SystemError) -> (seq: UInt64, dndUntil: UInt64?) {
    guard let bytes = try StateFiles.read(path) else { return (0, nil) }
    let decoded = Snapshot.decode(bytes)
    // Before the channels: a channel the snapshot holds keeps its own total.
    store.restoreTotalFloor(atLeast: decoded.snapshot.totalFloor)
    for channel in decoded.snapshot.channels {
      store.restore(
        name: channel.name, count: channel.count, unseen: channel.unseen, total: channel.total,
        override: channel.override, mirror: channel.mirror, seq: channel.seq)
    }
    for day in decoded.snapshot.days { store.restoreHistory(of: day.name, day.entry) }
    for id in decoded.snapshot.requestIDs { store.restoreID(id) }
    for entry in decoded.snapshot.forwards { store.restoreForward(entry) }
    store.setForwardIDs(
      host: store.outbox.host, epoch: decoded.snapshot.forwardEpoch, counter: decoded.snapshot.forwardNext)
    store.restoreDNDStamp(decoded.snapshot.dndStamp)
    store.restoreSeq(atLeast: decoded.snapshot.seq)
    if let problem = decoded.problem {
      if bytes.isEmpty {
        logger.warning("The snapshot '\(path)' is empty, ignoring it.")
      } else {
        let copy = try keepCopy(of: path)
        logger.error(
          "The snapshot '\(path)' is damaged (\(problem)): loaded its \(decoded.snapshot.channels.count) readable channels, kept a copy in '\(copy)'. Counts of other channels may be lost."
        )
      }
    }
    return (decoded.snapshot.seq, decoded.snapshot.dndUntil)
  }

  /// Applies the journal's records newer than the snapshot (`seq` above `snapshotSeq`).
  ///
  /// A change is written as one channel record that carries its day of history and its
  /// request's id (`Persistence.record`); an id saved without a change has a record of its own
  /// numbered like a change, and do-not-disturb's record carries its request's id with the
  /// number it was saved under. Journals written before that have a day record, then the channel
  /// record, and the two apply together: a day record waits for the channel record of its
  /// `seq`, and is dropped when the journal ends first (a write cut short between them). A day
  /// record after its channel record (older journals still) applies at once.
  ///
  /// Returns the last do-not-disturb record's value (`.some(nil)`: off), `nil` without one.
  static func replayJournal(
    at path: String, after snapshotSeq: UInt64, into store: Store, logger: Logger
  ) throws(SystemError) -> UInt64?? {
    guard let bytes = try StateFiles.read(path) else { return nil }
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    var applied = 0
    var waitingDay: DayRecord?
    var lastChannelSeq: UInt64?
    var dnd: UInt64?? = nil
    for record in contents.records {
      switch record {
      case .channel(let channel) where channel.seq > snapshotSeq:
        store.restore(
          name: channel.name, count: channel.count, unseen: channel.unseen, total: channel.total,
          override: channel.override, mirror: channel.mirror, seq: channel.seq)
        if let id = channel.id { store.restoreID(id) }
        if let forward = channel.forward { store.restoreForward(forward) }
        if let day = channel.day {
          store.restoreHistory(of: channel.name, day)
        } else if let day = waitingDay, day.seq == channel.seq, day.name == channel.name {
          store.restoreHistory(of: day.name, day.entry)
        }
        waitingDay = nil
        lastChannelSeq = channel.seq
        applied += 1
      case .doNotDisturb(let until, let saved, let stamp):
        // Not numbered: the journal is newer than the snapshot it follows, and a journal left
        // from before a compaction ends with the state the snapshot holds. Its id is numbered.
        dnd = .some(until)
        if stamp != nil { store.restoreDNDStamp(stamp) }
        if let saved, saved.seq > snapshotSeq { restore(saved, into: store) }
      case .delivered(let id):
        // Not numbered: taking out a write that is not there (the snapshot covers its
        // delivery) changes nothing.
        store.restoreDelivered(id)
      case .requestID(let saved) where saved.seq > snapshotSeq:
        restore(saved, into: store)
      case .day(let day) where day.seq > snapshotSeq:
        if day.seq == lastChannelSeq {
          store.restoreHistory(of: day.name, day.entry)
        } else {
          waitingDay = day
        }
      default: continue
      }
    }
    switch contents.damage {
    case nil: break
    case .tornTail(_, let dropped):
      logger.warning(
        "Dropped \(dropped) bytes of a torn record at the end of the journal '\(path)' (a write cut short by a crash); every complete record was loaded."
      )
    case .corrupt(let offset, let reason):
      let copy = try keepCopy(of: path)
      logger.error(
        "The journal '\(path)' is damaged at byte \(offset) (\(reason)): loaded the \(contents.records.count) records before it, kept a copy in '\(copy)'. Changes recorded after that point are lost."
      )
    case .badHeader:
      let copy = try keepCopy(of: path)
      logger.error(
        "The journal '\(path)' is not a badged journal: loaded nothing from it, kept a copy in '\(copy)'.")
    }
    if applied > 0 { logger.info("Replayed \(applied) changes from the journal.") }
    return dnd
  }

  /// An id saved on its own number: the id, and the number as used.
  private static func restore(_ saved: SavedRequestID, into store: Store) {
    store.restoreID(saved.id)
    store.restoreSeq(atLeast: saved.seq)
  }

  /// Keeps a damaged file beside the original (`journal.damaged-<seconds>`), for inspection.
  static func keepCopy(of path: String) throws(SystemError) -> String {
    let copy = StateFiles.unusedName(beside: path, suffix: "damaged-\(StateFiles.wallClockSeconds)")
    try StateFiles.copy(path, to: copy)
    return copy
  }
}
