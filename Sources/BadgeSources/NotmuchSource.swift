import BadgeCore

/// A notmuch source's decisions: when its worker lists or reads changes, how each answer
/// changes its channels' items (identity: the message id), and marking read.
///
/// A database is not polled: its Xapian folder is watched, and a commit (`iamglass` renamed
/// in) or a writer letting go (`flintlock` closed after writing) asks for the changes since
/// the revision last read; one job runs at a time, and changes asked for during one are read
/// once after it. A new UUID, a query whose count disagrees with its set once the changes are
/// in, an overflow, or the folder replaced recount from a full listing. Mark-read meeting a
/// writer's lock waits for the lock's release, or 5 s doubling to 60 s in case that was missed;
/// the state stays `ok`. A missing database is an error (`no notmuch database at …`, the
/// channels stale at 0) until it is made: the Xapian folder, its parent and its grandparent
/// are watched (`notmuch new` makes all three, and commits into the first), and the database
/// looked for again once they are, so one made in between is not missed.
struct NotmuchSource {
  let name: String
  let queries: [NotmuchQuery]
  private var revision: UInt64?
  private var uuid: String?
  /// A count job is with the worker.
  private var busy = false
  private var changesAfter = false
  private var recountAfter = false
  private var xapian: [UInt8]?
  /// Whether a missing database's folder, its parent and its grandparent are watched.
  private var waitingInParent = false
  /// A missing database's folder or its parent was made since they were watched: they are
  /// watched anew.
  private var rewatch = false
  /// Messages to mark read once the lock is let go.
  private var marking: [[UInt8]] = []
  private var lockWait = Backoff(initial: 5_000_000, maximum: 60_000_000)
  private(set) var due: UInt64?

  static let xapianTag = Array("xapian".utf8)
  static let parentTag = Array("..".utf8)
  static let grandparentTag = Array("../..".utf8)
  static let commitName = Array("iamglass".utf8)
  static let lockName = Array("flintlock".utf8)

  init(name: String, settings: NotmuchSettings) {
    self.name = name
    queries = settings.queries
  }

  var channels: [ChannelName] { queries.map(\.channel) }

  mutating func recount(into turn: inout SourceTurn) {
    guard !busy else {
      recountAfter = true
      return
    }
    turn.health = .recounting
    list(into: &turn)
  }

  /// Lists every query anew, the state left as it is (a missing database stays in error until
  /// it is found).
  private mutating func list(into turn: inout SourceTurn) {
    busy = true
    turn.actions.append(.notmuch(source: name, .list(queries: queries.map(\.query))))
  }

  /// The database may have changed.
  private mutating func readChanges(into turn: inout SourceTurn) {
    guard let revision else { return lookAgain(into: &turn) }
    guard !busy else {
      changesAfter = true
      return
    }
    busy = true
    turn.actions.append(.notmuch(source: name, .changes(since: revision, queries: queries.map(\.query))))
  }

  mutating func event(_ event: FSEvent, into turn: inout SourceTurn) {
    switch (event.kind, event.tag) {
    case (.overflow, _):
      recount(into: &turn)
    case (.watchedGone, NotmuchSource.xapianTag):
      recount(into: &turn)
    case (.appeared, NotmuchSource.parentTag):
      guard let xapian, event.name == BytePath.split(xapian).name else { break }
      rewatch = true
      lookAgain(into: &turn)
    case (.appeared, NotmuchSource.grandparentTag):
      // The parent made: watched anew, then the database looked for again.
      guard let xapian, event.name == BytePath.split(BytePath.split(xapian).parent).name else { break }
      rewatch = true
      lookAgain(into: &turn)
    case (.appeared, NotmuchSource.xapianTag) where event.name == NotmuchSource.commitName:
      readChanges(into: &turn)
    case (.written, NotmuchSource.xapianTag) where event.name == NotmuchSource.lockName:
      readChanges(into: &turn)
      markAgain(into: &turn)
    default:
      break
    }
  }

  mutating func result(_ result: NotmuchResult, at time: SourceTime, into turn: inout SourceTurn) {
    switch result {
    case .listed(let revision, let uuid, let xapian, let ids):
      busy = false
      (self.revision, self.uuid) = (revision, uuid)
      watch(xapian, into: &turn)
      for (query, ids) in zip(queries, ids) {
        turn.change(query.channel, .replace(ids.map { ListedItem($0, at: NotmuchSource.place($0)) }))
      }
      turn.health = .ok
    case .changed(let revision, let uuid, let changes):
      busy = false
      guard uuid == self.uuid else {
        recountAfter = false
        return recount(into: &turn)
      }
      self.revision = revision
      for (query, change) in zip(queries, changes) {
        for id in change.leaving { turn.change(query.channel, .drop(id)) }
        for id in change.matching { turn.change(query.channel, .add(ListedItem(id, at: NotmuchSource.place(id)))) }
        turn.expected.append((query.channel, change.count))
      }
    case .missing(let path):
      busy = false
      (revision, uuid) = (nil, nil)
      xapian = path
      for channel in channels { turn.change(channel, .replace([])) }
      turn.health = .error("no notmuch database at \(String(decoding: path, as: UTF8.self))")
      if !waitingInParent || rewatch {
        (waitingInParent, rewatch) = (true, false)
        let parent = BytePath.split(path).parent
        turn.actions.append(.watch(source: name, tag: NotmuchSource.parentTag, path: parent, purpose: .folders))
        turn.actions.append(
          .watch(
            source: name, tag: NotmuchSource.grandparentTag, path: BytePath.split(parent).parent, purpose: .folders))
        // A folder `notmuch new` is still making: its first commit tells when it is a database.
        turn.actions.append(.watch(source: name, tag: NotmuchSource.xapianTag, path: path, purpose: .database))
        // Looked for again once watched: a database made before the watches is found.
        recountAfter = false
        list(into: &turn)
      }
    case .locked:
      due = time.boottime + lockWait.nominal
      var steady = SteadyDelays()
      _ = lockWait.failed(using: &steady)
      turn.wake = due
    case .marked:
      marking = []
      lockWait.succeeded()
    case .failed(let why):
      busy = false
      // The next commit lists anew, which ends the error, rather than reading changes.
      revision = nil
      turn.health = .error(why)
    }
    if !busy && recountAfter {
      recountAfter = false
      changesAfter = false
      recount(into: &turn)
    } else if !busy && changesAfter {
      changesAfter = false
      readChanges(into: &turn)
    }
  }

  /// Nothing listed to read changes against (the database missing, or a read failed), or a
  /// missing database's folder or its parent appeared: listed anew, the state left in error
  /// until that succeeds.
  private mutating func lookAgain(into turn: inout SourceTurn) {
    guard !busy else {
      recountAfter = true
      return
    }
    list(into: &turn)
  }

  /// The database's folder, watched once known.
  private mutating func watch(_ folder: [UInt8], into turn: inout SourceTurn) {
    if waitingInParent {
      (waitingInParent, rewatch) = (false, false)
      turn.actions.append(.unwatch(source: name, tag: NotmuchSource.parentTag))
      turn.actions.append(.unwatch(source: name, tag: NotmuchSource.grandparentTag))
    }
    xapian = folder
    turn.actions.append(.watch(source: name, tag: NotmuchSource.xapianTag, path: folder, purpose: .database))
  }

  /// A timer: mark-read's wait for the lock is over.
  mutating func tick(at time: SourceTime, into turn: inout SourceTurn) {
    guard let due, due <= time.boottime else { return }
    self.due = nil
    markAgain(into: &turn)
  }

  private mutating func markAgain(into turn: inout SourceTurn) {
    guard !marking.isEmpty else { return }
    due = nil
    turn.actions.append(.notmuch(source: name, .markRead(ids: marking)))
  }

  /// Removes `unread` from exactly these messages.
  mutating func markRead(_ items: [ListedItem], into turn: inout SourceTurn) {
    marking += items.map(\.identity)
    markAgain(into: &turn)
  }

  /// Where a message lives: nowhere a source renames; the id is all a mark needs.
  static func place(_ id: [UInt8]) -> ItemPlace { ItemPlace(directory: [], name: id) }
}
