import BadgeCore

/// A maildir source's decisions: what to watch and list, which messages each event adds or
/// removes, when to recount, and the renames that mark messages read.
///
/// A recount (`recount()`) watches the root and lists it, then watches and lists each folder's
/// `new/` and `cur/` (for a Verbatim layout, every directory to `MaildirLayout.maxDepth`
/// first); events read meanwhile are queued and applied after the listings, with set
/// semantics, so nothing between the two is lost. One recount runs at a time; one asked for
/// during it runs once after. The choices the design left open, made here:
/// - A replaced or vanished watched directory, and a folder directory created or moved in or
///   out, recount the whole source: folders are few, and a recount lists only names.
/// - A missing root waits, count 0, with its parent watched for it (one level: a root whose
///   parent is missing too is found by the next recount, on resume or reconnection).
/// - A root that is a file is an error; the counts stay as they were, stale.
struct MaildirSource {
  let name: String
  let root: [UInt8]
  let settings: MaildirSettings
  let channel: SourceChannel

  /// What each watched tag is.
  private(set) var roles: [WatchTag: Role] = [:]
  /// The channels this source counted into, to empty those whose folders went.
  private(set) var channels: Set<ChannelName> = []
  private var running: Recount?
  private var again = false

  /// What a watched or listed directory is.
  enum Role: Equatable {
    /// The root itself.
    case root
    /// The root's parent, while the root is missing.
    case parent
    /// A folder's own directory (Maildir++ `.A`, or a Verbatim directory).
    case directory
    /// A folder's `new/` or `cur/`.
    case messages(folder: MaildirFolder, place: MaildirPlace)
  }

  /// A recount under way: what is still to be listed, what was listed, events meanwhile.
  private struct Recount {
    var pending: Set<WatchTag> = []
    var roles: [WatchTag: Role] = [:]
    var listings: [WatchTag: [ListedName]] = [:]
    var queued: [FSEvent] = []
  }

  init(name: String, settings: MaildirSettings, channel: SourceChannel, home: [UInt8]) {
    self.name = name
    self.settings = settings
    self.channel = channel
    root = BytePath.expand(settings.path, home: home)
  }

  static let parentTag = Array("..".utf8)

  var isRecounting: Bool { running != nil }

  /// The channel a folder counts into.
  func channel(of folder: MaildirFolder) -> ChannelName {
    switch channel {
    case .fixed(let name): return name
    case .template(let template): return template.channel(forFolder: folder.name)
    }
  }

  /// Lists everything anew (or once more after the one under way).
  mutating func recount(into turn: inout SourceTurn) {
    guard running == nil else {
      again = true
      return
    }
    running = Recount()
    turn.health = .recounting
    look(at: [], as: .root, into: &turn)
  }

  /// Watches and lists `tag` as part of the recount.
  private mutating func look(at tag: WatchTag, as role: Role, into turn: inout SourceTurn) {
    let path = BytePath.join(root, tag)
    let purpose: WatchPurpose = if case .messages = role { .items } else { .folders }
    turn.actions.append(.watch(source: name, tag: tag, path: path, purpose: purpose))
    turn.actions.append(.list(source: name, tag: tag, path: path))
    running?.pending.insert(tag)
    running?.roles[tag] = role
  }

  /// Watches and lists a folder's `new/` and `cur/`.
  private mutating func lookInto(_ folder: MaildirFolder, into turn: inout SourceTurn) {
    for place in MaildirPlace.allCases {
      look(
        at: BytePath.join(folder.directory, Array(place.rawValue.utf8)), as: .messages(folder: folder, place: place),
        into: &turn)
    }
  }

  /// A listing the recount asked for.
  mutating func listed(_ tag: WatchTag, _ result: Result<[ListedName], ListingFailure>, into turn: inout SourceTurn) {
    guard var listing = running, listing.pending.remove(tag) != nil, let role = listing.roles[tag] else { return }
    running = listing
    switch (role, result) {
    case (.root, .failure(let failure)):
      rootFailed(failure, into: &turn)
      return
    case (.root, .success(let listing)):
      switch MaildirLayout(root: listing) {
      case .maildirPlusPlus:
        for folder in MaildirLayout.plusPlusFolders(root: listing)
        where settings.folders.contains(where: { $0.matches(folder.name) }) {
          if !folder.directory.isEmpty { look(at: folder.directory, as: .directory, into: &turn) }
          lookInto(folder, into: &turn)
        }
      case .verbatim:
        for child in MaildirLayout.verbatimChildren(of: [], listing: listing) {
          look(at: child, as: .directory, into: &turn)
        }
      }
    case (.directory, .success(let listing)):
      if !isPlusPlus(tag), let folder = MaildirLayout.verbatimFolder(tag, listing: listing),
        settings.folders.contains(where: { $0.matches(folder.name) })
      {
        lookInto(folder, into: &turn)
      }
      if !isPlusPlus(tag) {
        for child in MaildirLayout.verbatimChildren(of: tag, listing: listing) {
          look(at: child, as: .directory, into: &turn)
        }
      }
    case (.messages, .success(let listing)):
      running?.listings[tag] = listing
    case (_, .failure):
      running?.listings[tag] = []
    case (.parent, _):
      break
    }
    if running?.pending.isEmpty == true { finish(into: &turn) }
  }

  /// Whether a folder directory is Maildir++'s (`.A` under the root).
  private func isPlusPlus(_ tag: WatchTag) -> Bool { tag.first == UInt8(ascii: ".") }

  /// The root could not be listed: waiting, or an error.
  private mutating func rootFailed(_ failure: ListingFailure, into turn: inout SourceTurn) {
    let path = String(decoding: root, as: UTF8.self)
    let queued = running?.queued ?? []
    let looked = running?.roles ?? [:]
    running = nil
    // The parent tells when the root appears, or a file there makes way for a directory.
    let wanted: [WatchTag: Role] = [MaildirSource.parentTag: .parent]
    turn.actions.append(
      .watch(source: name, tag: MaildirSource.parentTag, path: BytePath.split(root).parent, purpose: .folders))
    switch failure {
    case .missing:
      for channel in channels.sorted(by: { "\($0)" < "\($1)" }) { turn.change(channel, .replace([])) }
      turn.health = .waiting(for: path)
    case .notADirectory:
      turn.health = .error("\(path) is not a directory")
    case .failed(let why):
      turn.health = .error("\(path): \(why)")
    }
    rewatch(wanted, looked: looked, into: &turn)
    if again {
      again = false
      recount(into: &turn)
    } else {
      for event in queued { self.event(event, into: &turn) }
    }
  }

  /// Every listing is in: the channels hold what they show, then the events meanwhile apply.
  private mutating func finish(into turn: inout SourceTurn) {
    guard let done = running else { return }
    running = nil
    var found: [ChannelName: [ListedItem]] = [:]
    for channel in channels { found[channel] = [] }
    var present: Set<ChannelName> = []
    if case .fixed(let channel) = channel { present.insert(channel) }
    for (tag, role) in done.roles {
      guard case .messages(let folder, let place) = role else { continue }
      present.insert(channel(of: folder))
      let items = (done.listings[tag] ?? []).compactMap { entry -> ListedItem? in
        guard entry.type != .directory, let message = MaildirName(entry.name), message.isUnread(in: place) else {
          return nil
        }
        return ListedItem(message.unique, at: ItemPlace(directory: tag, name: entry.name))
      }
      found[channel(of: folder), default: []] += items
    }
    for (channel, items) in found.sorted(by: { "\($0.key)" < "\($1.key)" }) { turn.change(channel, .replace(items)) }
    channels = present
    rewatch(done.roles, looked: done.roles, into: &turn)
    turn.health = .ok
    if again {
      again = false
      recount(into: &turn)
      running?.queued = done.queued
    } else {
      for event in done.queued { self.event(event, into: &turn) }
    }
  }

  /// The watches are now `wanted`: the others, made before or during the recount (`looked`),
  /// are dropped.
  private mutating func rewatch(_ wanted: [WatchTag: Role], looked: [WatchTag: Role], into turn: inout SourceTurn) {
    let made = Set(roles.keys).union(looked.keys)
    for tag in made.filter({ wanted[$0] == nil }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      turn.actions.append(.unwatch(source: name, tag: tag))
    }
    roles = wanted
  }

  /// One event of the source's inotify descriptor.
  mutating func event(_ event: FSEvent, into turn: inout SourceTurn) {
    if event.kind == .overflow { return recount(into: &turn) }
    if running != nil {
      running?.queued.append(event)
      return
    }
    switch roles[event.tag] {
    case .messages(let folder, let place):
      messagesEvent(event, in: folder, place, into: &turn)
    case .root, .directory:
      if event.kind == .watchedGone || event.isDirectory { recount(into: &turn) }
    case .parent:
      if event.kind == .appeared && event.name == BytePath.split(root).name { recount(into: &turn) }
    case nil:
      break
    }
  }

  private mutating func messagesEvent(
    _ event: FSEvent, in folder: MaildirFolder, _ place: MaildirPlace, into turn: inout SourceTurn
  ) {
    if event.kind == .watchedGone { return recount(into: &turn) }
    guard !event.isDirectory, let message = MaildirName(event.name) else { return }
    let channel = channel(of: folder)
    let at = ItemPlace(directory: event.tag, name: event.name)
    switch event.kind {
    case .appeared:
      channels.insert(channel)
      turn.change(
        channel, message.isUnread(in: place) ? .add(ListedItem(message.unique, at: at)) : .drop(message.unique))
    case .departed:
      turn.change(channel, .remove(message.unique, at: at))
    case .watchedGone, .overflow:
      break
    }
  }

  /// The renames that mark these items read: `new/X` → `cur/X:2,S`, `cur/X:2,FR` →
  /// `cur/X:2,FRS`. Their events lower the count the ordinary way.
  func markRead(_ items: [ListedItem]) -> [SourceAction] {
    items.compactMap { item in
      guard case .messages(let folder, let place) = roles[item.place.directory],
        let message = MaildirName(item.place.name), let read = message.markedRead(from: place)
      else { return nil }
      let cur = BytePath.join(folder.directory, Array(MaildirPlace.cur.rawValue.utf8))
      return .rename(
        source: name, from: BytePath.join(BytePath.join(root, item.place.directory), item.place.name),
        to: BytePath.join(BytePath.join(root, cur), read.bytes))
    }
  }
}
