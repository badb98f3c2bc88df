import BadgeConfig
import BadgeLog
import BadgePersistence
import BadgeSystem
import Glibc
import TestSupport

@testable import BadgeCore
@testable import BadgeDaemon

/// A run of the real `Persistence` driven the way the server drives it, recorded through
/// `StorageTrace`: in each loop turn several clients' requests change the store, each change
/// is `record`ed, one `commit` writes the turn (group commit), and only then are the turn's
/// replies sent, which is when the clients learn their changes were made. Now and then a
/// compaction runs, as `commit` runs one past its size threshold.
///
/// Some requests carry ids, as `CommandExecutor` handles them: a new id is saved with its
/// change (in the change's record), or on its own when the request changes nothing or several
/// channels (`CLEAR *`), or with do-not-disturb's change; a retried id changes nothing. Each
/// of those is a step whose state the loaded one may be, so an id loaded without its change,
/// or a change without its id, is a state no step had.
///
/// A bridge plays beside the clients (from a generator of its own): it puts an owner's state
/// into the mirrored channel `remote`, a client writes to it (the write forwarded in its
/// change's record), and the bridge delivers the oldest waiting write; the outbox is part of
/// each step's state, so a write loaded without its change, or a change without its write, is
/// a state no step had.
struct RecordedRun {
  /// The trace: storage operations in order, with the points where a change was made and
  /// where the turn's replies went out.
  enum Step {
    case storage(StorageTrace.Event)
    case change
    case acknowledged
  }

  let folder: String
  /// The state folder's files when the recording started (all on disk).
  let initialFiles: PowerCutModel.Files
  var steps: [Step] = []
  /// The persistent view of the store after each change; `states[0]` is the state loaded
  /// at start.
  var states: [PersistedState] = []
  /// How the run's ids were saved, so a test can see it went down every path.
  var ids = IDPaths()
  /// What the bridge did: owners' states put in, writes forwarded, writes delivered.
  var bridge = (mirrored: 0, forwarded: 0, delivered: 0)

  struct IDPaths {
    /// Saved in a channel's record, with its change.
    var withAChange = 0
    /// Saved in a record of their own: a request that changed nothing, or `CLEAR *`.
    var alone = 0
    /// Saved in do-not-disturb's record.
    var withDND = 0
    /// Retries answered from the table.
    var answered = 0
    /// Retries of ids the table had forgotten, carried out again.
    var forgotten = 0
  }

  static let names = ["mail", "chat", "build", "app:a", "app:b", "news"].map { ChannelName($0)! }
  /// The channel another machine owns.
  static let remote = ChannelName("remote")!
  /// Few ids are kept, so that the run forgets the oldest and the snapshots' tables are full.
  static let requestIDCapacity = 40

  /// A new folder under /tmp for a run; the test removes it (`removeFolder`) whether the run
  /// succeeds or not.
  static func makeFolder() throws -> String {
    var template = Array("/tmp/badged-crash-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw SystemError("mkdtemp", .current) }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Removes a run's folder: the state files and the recovery scratch folder in it.
  static func removeFolder(_ path: String) {
    for sub in ["recovery", ""] {
      let folder = sub.isEmpty ? path : path + "/" + sub
      guard let dir = opendir(folder) else { continue }
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { unlink(folder + "/" + name) }
      }
      closedir(dir)
      rmdir(folder)
    }
  }

  /// The room the journal makes at a time: small, so that the run makes many chunks and
  /// writes into each, and compacts journals that hold room.
  static let roomChunk = 2048

  /// Runs `turns` turns of `clients` clients with `sync`, after a first daemon life that left
  /// a state behind, in `folder` (from `makeFolder`).
  static func record(
    in folder: String, sync: SyncMode, turns: Int, clients: Int, compactEvery: Int, seed: UInt64
  ) throws -> RecordedRun {
    let loop = try EventLoop()
    let quiet = Logger(level: .emergency, destination: .standardError(priorityPrefix: false))
    var random = SplitMix(seed: seed)
    var bridgeRandom = SplitMix(seed: seed &+ 0x6272_6964_6765)

    // The first life: a few changes, then a crash, which leaves them in a journal with room
    // after them for the recorded life to load.
    do {
      let store = Store()
      let persistence = try Persistence(
        folder: folder, store: store, sync: .always, loop: loop, logger: quiet, roomChunk: roomChunk)
      for name in names.prefix(3) {
        let outcome = try store.apply(.write(.incr(2)), to: name, now: 0)
        persistence.record(outcome.channel, day: outcome.day, id: nil)
      }
      try persistence.commit()
    }
    var run = RecordedRun(folder: folder, initialFiles: try files(in: folder))

    // The recorded life. Only this folder's operations: tests running beside this one use
    // the same storage layer.
    var events: [StorageTrace.Event] = []
    var steps: [Step] = []
    StorageTrace.recorder = { event in
      let path: String
      switch event {
      case .open(let p, _), .write(let p, _, _), .flush(let p), .truncate(let p, _), .remove(let p): path = p
      case .rename(let from, _): path = from
      case .flushFolder(let p): path = p + "/"
      }
      if path.hasPrefix(folder + "/") { events.append(event) }
    }
    defer { StorageTrace.recorder = nil }
    func flushEvents() {
      steps += events.map(Step.storage)
      events.removeAll()
    }

    let store = Store(requestIDCapacity: requestIDCapacity)
    let persistence = try whenUnlocked { () throws(SystemError) in
      try Persistence(folder: folder, store: store, sync: sync, loop: loop, logger: quiet, roomChunk: roomChunk)
    }
    flushEvents()
    run.states.append(view(of: store))
    func step() {
      steps.append(.change)
      run.states.append(view(of: store))
    }
    var ids: [RequestID] = []
    /// The bridge's part of a turn, and a client's write to the mirrored channel.
    func bridgeTurn(_ turn: Int, now: UInt64) {
      switch Int.random(in: 0..<4, using: &bridgeRandom) {
      case 0:
        let count = Int.random(in: 0...5, using: &bridgeRandom)
        let update = MirrorUpdate(
          owner: "server", count: count, unseen: count, total: 100 + turn, muted: false, dot: false,
          ownerSeq: UInt64(turn))
        guard let outcome = try? store.apply(.mirror(update), to: remote, now: now), outcome.changed else { return }
        persistence.record(outcome.channel, day: outcome.day, id: nil)
        run.bridge.mirrored += 1
        step()
      case 1, 2:
        guard store.channel(named: remote).isMirrored else { return }
        let mutation: Store.Mutation = Bool.random(using: &bridgeRandom) ? .write(.incr(1)) : .write(.clear(upTo: nil))
        guard let outcome = try? store.apply(mutation, to: remote, now: now), outcome.changed else { return }
        persistence.record(outcome.channel, day: outcome.day, id: nil, forward: outcome.forwarded)
        run.bridge.forwarded += 1
        step()
      default:
        guard let oldest = store.outbox.entries.first else { return }
        _ = store.deliver(oldest.id)
        persistence.recordDelivered(oldest.id)
        run.bridge.delivered += 1
        step()
        guard !store.outbox.hasPending(remote), var mirror = store.channel(named: remote).mirror, mirror.pending
        else { return }
        mirror.pending = false
        guard let outcome = try? store.apply(.mirrorState(mirror), to: remote, now: now), outcome.changed else {
          return
        }
        persistence.record(outcome.channel, day: outcome.day, id: nil)
        step()
      }
    }
    for turn in 0..<turns {
      // A new local day every 40 turns, so that history spans days.
      store.today = 20_000 + turn / 40
      let now = UInt64(turn) * 1000
      for _ in 0..<clients {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let name = names[Int.random(in: 0..<names.count, using: &random)]
          // One request in four has an id: a new one, or (one time in four) one sent before.
          var id: RequestID?
          if Int.random(in: 0..<4, using: &random) == 0 {
            if !ids.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
              let retried = ids[Int.random(in: max(0, ids.count - 60)..<ids.count, using: &random)]
              if store.lookup(retried) != .unknown {
                run.ids.answered += 1  // answered from the table
                continue
              }
              run.ids.forgotten += 1
              id = retried  // forgotten already: carried out again
            } else {
              id = RequestID(token: "r\(ids.count)", fingerprint: UInt64(ids.count))
              ids.append(id!)
            }
          }
          switch Int.random(in: 0..<20, using: &random) {
          case 0 where id != nil:
            // `CLEAR *` with an id: its channels' records, then the id's.
            store.writeAll(.clear(upTo: nil), now: now) { outcome in
              persistence.record(outcome.channel, day: outcome.day, id: nil, forward: outcome.forwarded)
              if outcome.forwarded != nil { run.bridge.forwarded += 1 }
              step()
            }
            persistence.record(SavedRequestID(seq: store.saveID(id!), id: id!))
            run.ids.alone += 1
            step()
          case 1 where id != nil:
            // Do-not-disturb turned on or off, the id in its record; or, unchanged, on its own.
            if store.setDND(DoNotDisturb(isOn: Bool.random(using: &random), until: 0)) {
              persistence.record(store.dnd, id: SavedRequestID(seq: store.saveID(id!), id: id!))
              run.ids.withDND += 1
            } else {
              persistence.record(SavedRequestID(seq: store.saveID(id!), id: id!))
              run.ids.alone += 1
            }
            step()
          default:
            let total = store.channel(named: name).total
            guard let outcome = try? store.apply(mutation(total: total, using: &random), to: name, now: now)
            else { continue }
            if outcome.changed {
              if let id {
                store.saveID(ofChange: id)
                run.ids.withAChange += 1
              }
              persistence.record(outcome.channel, day: outcome.day, id: id, forward: outcome.forwarded)
            } else if let id {
              persistence.record(SavedRequestID(seq: store.saveID(id), id: id))
              run.ids.alone += 1
            } else {
              continue
            }
            step()
          }
        }
      }
      bridgeTurn(turn, now: now)
      try persistence.commit()
      flushEvents()
      steps.append(.acknowledged)
      if turn % compactEvery == compactEvery - 1 {
        try persistence.compact()
        flushEvents()
      }
    }
    try persistence.close()
    flushEvents()
    run.steps = steps
    return run
  }

  /// `open()`, tried again while it fails only because the state folder's lock is held, for up
  /// to 10 s. The first life let its lock go when its Persistence went, but a program another
  /// test started at that moment holds a copy of the lock's descriptor until it has exec'd
  /// (close-on-exec): on a busy machine, for long enough to refuse the second life's lock.
  private static func whenUnlocked<T>(_ open: () throws(SystemError) -> T) throws(SystemError) -> T {
    let deadline = Environment.monotonicMicroseconds + 10_000_000
    while true {
      do {
        return try open()
      } catch  where error.errno.rawValue == EWOULDBLOCK && Environment.monotonicMicroseconds < deadline {
        usleep(1_000)
      }
    }
  }

  /// A change of a channel whose running total is `total`: clears and sights up to a total
  /// a little behind it, as a client that was shown an older state sends.
  private static func mutation(total: Int, using random: inout SplitMix) -> Store.Mutation {
    switch Int.random(in: 0..<12, using: &random) {
    case 0..<4: return .write(.incr(Int.random(in: 1...3, using: &random)))
    case 4..<6: return .write(.decr(Int.random(in: 1...2, using: &random)))
    case 6: return .write(.set(Int.random(in: 0...9, using: &random)))
    case 7: return .write(.mute)
    case 8: return .write(.unmute)
    case 9: return .write(.clear(upTo: max(0, total - Int.random(in: 0...3, using: &random))))
    case 10: return .write(.seen(upTo: max(0, total - Int.random(in: 0...3, using: &random))))
    default:
      return .configure(set: SettingsOverride(maxLabel: Int.random(in: 1...99, using: &random)), reset: [])
    }
  }

  /// What of a store is kept on disk: its channels (with their totals) and their days of
  /// history, in order, the request ids, oldest first, do-not-disturb (on until turned
  /// off: 0; off: `nil`), and the total floor.
  struct PersistedState: Equatable {
    var channels: [ChannelRecord]
    var days: [DayRecord]
    var requestIDs: [RequestID]
    var dnd: UInt64?
    /// The forward outbox: the waiting writes, oldest first.
    var forwards: [ForwardEntry]
    /// The largest total of a channel forgotten, which a channel made anew starts at.
    var totalFloor: Int
  }

  /// The view of a store in the run, whose do-not-disturb is never timed.
  static func view(of store: Store) -> PersistedState {
    view(of: store, dnd: store.dnd.isOn ? 0 : nil)
  }

  /// The view of `store` with do-not-disturb as the files hold it (what recovery returns).
  static func view(of store: Store, dnd: UInt64?) -> PersistedState {
    let snapshot = Snapshot(of: store)
    return PersistedState(
      channels: snapshot.channels.sorted { $0.name < $1.name },
      days: snapshot.days.sorted { ($0.name, $0.entry.day) < ($1.name, $1.entry.day) },
      requestIDs: snapshot.requestIDs, dnd: dnd, forwards: snapshot.forwards, totalFloor: snapshot.totalFloor)
  }

  /// The state folder's files by name, but the lock (no state).
  static func files(in folder: String) throws -> PowerCutModel.Files {
    var files: PowerCutModel.Files = [:]
    for name in ["snapshot", "journal", "snapshot.tmp", "journal.tmp"] {
      if let bytes = try StateFiles.read(folder + "/" + name) { files[name] = bytes }
    }
    return files
  }
}
