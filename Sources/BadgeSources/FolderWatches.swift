import BadgeCore

/// What a watched or listed directory is to a source that counts what lies in folders.
enum FolderRole<Place: Equatable & Sendable>: Equatable, Sendable {
  /// The root itself.
  case root
  /// The root's parent, while the root is missing or no directory.
  case parent
  /// A directory in which folders appear (Maildir++ `.A`, a Verbatim directory).
  case directory
  /// A directory holding items, and what it is to the kind.
  case items(Place)
}

/// The watches of a source that counts what lies in folders (maildir, files) and its recounts:
/// the part both kinds share, so that they recount the same way.
///
/// A recount watches each directory before it lists it, keeps the events read meanwhile, and
/// hands them back once every listing is in, to be applied on top with set semantics. One runs
/// at a time; one asked for during it runs once after (`finish` says so). A root that cannot be
/// listed leaves only its parent watched, for it to appear.
struct FolderWatches<Place: Equatable & Sendable>: Sendable {
  typealias Role = FolderRole<Place>

  let source: String
  let root: [UInt8]
  /// What each watched tag is.
  private(set) var roles: [WatchTag: Role] = [:]
  private var running: Recount?
  private var again = false

  /// A recount under way.
  struct Recount: Sendable {
    var pending: Set<WatchTag> = []
    var roles: [WatchTag: Role] = [:]
    var listings: [WatchTag: [ListedName]] = [:]
    var queued: [FSEvent] = []
  }

  static var parentTag: WatchTag { Array("..".utf8) }

  init(source: String, root: [UInt8]) {
    self.source = source
    self.root = root
  }

  var isRecounting: Bool { running != nil }

  /// The root as text, for messages.
  var rootText: String { String(decoding: root, as: UTF8.self) }

  /// Starts a recount with the root watched and listed; `false` when one is under way, which
  /// then runs once more after.
  mutating func start(into turn: inout SourceTurn) -> Bool {
    guard running == nil else {
      again = true
      return false
    }
    running = Recount()
    look(at: [], as: .root, into: &turn)
    return true
  }

  /// Watches and lists `tag` as part of the recount.
  mutating func look(at tag: WatchTag, as role: Role, into turn: inout SourceTurn) {
    let path = BytePath.join(root, tag)
    let purpose: WatchPurpose = if case .items = role { .items } else { .folders }
    turn.actions.append(.watch(source: source, tag: tag, path: path, purpose: purpose))
    turn.actions.append(.list(source: source, tag: tag, path: path))
    running?.pending.insert(tag)
    running?.roles[tag] = role
  }

  /// A listing the recount asked for: what its directory is, `nil` when it asked for none.
  /// A failed listing other than the root's holds nothing (its directory went, which its
  /// watch reports).
  mutating func listed(_ tag: WatchTag, _ result: Result<[ListedName], ListingFailure>) -> Role? {
    guard var recount = running, recount.pending.remove(tag) != nil, let role = recount.roles[tag] else { return nil }
    recount.listings[tag] = (try? result.get()) ?? []
    running = recount
    return role
  }

  /// Whether every listing asked for is in.
  var isListed: Bool { running?.pending.isEmpty == true }

  /// Ends the recount: the watches it made are kept, the others dropped. Returns it, and
  /// whether another is to start (its queued events then wait for that one).
  mutating func finish(into turn: inout SourceTurn) -> (done: Recount, again: Bool)? {
    guard let done = running else { return nil }
    running = nil
    rewatch(done.roles, made: done.roles, into: &turn)
    defer { again = false }
    return (done, again)
  }

  /// The root could not be listed: only its parent stays watched. Returns the recount's
  /// events, and whether another is to start.
  mutating func rootFailed(into turn: inout SourceTurn) -> (queued: [FSEvent], again: Bool) {
    let done = running ?? Recount()
    running = nil
    let parent = FolderWatches.parentTag
    turn.actions.append(.watch(source: source, tag: parent, path: BytePath.split(root).parent, purpose: .folders))
    rewatch([parent: .parent], made: done.roles, into: &turn)
    defer { again = false }
    return (done.queued, again)
  }

  /// An event read while a recount is under way is kept for its end: `true` when so.
  mutating func keep(_ event: FSEvent) -> Bool {
    guard running != nil else { return false }
    running?.queued.append(event)
    return true
  }

  /// Events to apply after the next recount rather than the one that ended.
  mutating func carry(_ events: [FSEvent]) {
    let later = running?.queued ?? []
    running?.queued = events + later
  }

  /// Whether an event on a directory that is no items folder calls for a recount: the
  /// directory went, a directory appeared or went in it, or (the parent) the root appeared.
  func isStructural(_ event: FSEvent, _ role: Role) -> Bool {
    switch role {
    case .root, .directory: return event.kind == .watchedGone || event.isDirectory
    case .parent: return event.kind == .appeared && event.name == BytePath.split(root).name
    case .items: return event.kind == .watchedGone
    }
  }

  private mutating func rewatch(_ wanted: [WatchTag: Role], made: [WatchTag: Role], into turn: inout SourceTurn) {
    let all = Set(roles.keys).union(made.keys)
    for tag in all.filter({ wanted[$0] == nil }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      turn.actions.append(.unwatch(source: source, tag: tag))
    }
    roles = wanted
  }
}

/// A source that counts what lies in folders, for the steps maildir and files sources take
/// alike around a recount.
protocol FolderCounting {
  associatedtype Place: Equatable & Sendable
  var watches: FolderWatches<Place> { get set }
  /// The channels a missing root sets to 0.
  var countedChannels: [ChannelName] { get }
  mutating func recount(into turn: inout SourceTurn)
  mutating func event(_ event: FSEvent, into turn: inout SourceTurn)
}

extension FolderCounting {
  /// The root could not be listed: missing is waiting, count 0, not stale; a file there or
  /// another failure is an error, the counts kept, stale.
  mutating func rootFailed(_ failure: ListingFailure, into turn: inout SourceTurn) {
    let (queued, again) = watches.rootFailed(into: &turn)
    switch failure {
    case .missing:
      for channel in countedChannels { turn.change(channel, .replace([])) }
      turn.health = .waiting(for: watches.rootText)
    case .notADirectory:
      turn.health = .error("\(watches.rootText) is not a directory")
    case .failed(let why):
      turn.health = .error("\(watches.rootText): \(why)")
    }
    carryOn(queued, again: again, into: &turn)
  }

  /// After a recount: the next one, which the events read during this one wait for, or those
  /// events now.
  mutating func carryOn(_ queued: [FSEvent], again: Bool, into turn: inout SourceTurn) {
    if again {
      recount(into: &turn)
      watches.carry(queued)
    } else {
      for event in queued { self.event(event, into: &turn) }
    }
  }
}
