import BadgeCore

/// A maildir source's decisions: which folders it counts, which messages each event adds or
/// removes, and the renames that mark messages read; its watches and recounts are
/// `FolderWatches`'.
///
/// A recount watches and lists the root, then each selected folder's `new/` and `cur/` (for a
/// Verbatim layout, every directory to `MaildirLayout.maxDepth` first). The choices the design
/// left open, made here:
/// - A replaced or vanished watched directory, and a folder directory created or moved in or
///   out, recount the whole source: folders are few, and a recount lists only names.
/// - A missing root waits, count 0, with its parent watched for it (one level: a root whose
///   parent is missing too is found by the next recount, on resume or reconnection).
/// - A root that is a file is an error; the counts stay as they were, stale.
struct MaildirSource: FolderCounting {
  typealias Role = FolderRole<MessagesFolder>

  /// A folder's `new/` or `cur/`.
  struct MessagesFolder: Equatable, Sendable {
    var folder: MaildirFolder
    var place: MaildirPlace
  }

  let name: String
  let settings: MaildirSettings
  let channel: SourceChannel
  var watches: FolderWatches<MessagesFolder>
  var countedChannels: [ChannelName] { channels.sorted { "\($0)" < "\($1)" } }
  /// The channels this source counts into, to empty those whose folders went.
  private(set) var channels: Set<ChannelName> = []

  init(name: String, settings: MaildirSettings, channel: SourceChannel, home: [UInt8]) {
    self.name = name
    self.settings = settings
    self.channel = channel
    watches = FolderWatches(source: name, root: BytePath.expand(settings.path, home: home))
  }

  /// The channel a folder counts into.
  func channel(of folder: MaildirFolder) -> ChannelName {
    switch channel {
    case .fixed(let name): return name
    case .template(let template): return template.channel(forFolder: folder.name)
    }
  }

  private func selects(_ folder: MaildirFolder) -> Bool { settings.folders.contains { $0.matches(folder.name) } }

  /// Lists everything anew (or once more after the one under way).
  mutating func recount(into turn: inout SourceTurn) {
    if watches.start(into: &turn) { turn.health = .recounting }
  }

  /// Watches and lists a folder's `new/` and `cur/`.
  private mutating func lookInto(_ folder: MaildirFolder, into turn: inout SourceTurn) {
    for place in MaildirPlace.allCases {
      let tag = BytePath.join(folder.directory, Array(place.rawValue.utf8))
      watches.look(at: tag, as: .items(MessagesFolder(folder: folder, place: place)), into: &turn)
    }
  }

  /// A listing the recount asked for.
  mutating func listed(_ tag: WatchTag, _ result: Result<[ListedName], ListingFailure>, into turn: inout SourceTurn) {
    guard let role = watches.listed(tag, result) else { return }
    switch (role, result) {
    case (.root, .failure(let failure)):
      return rootFailed(failure, into: &turn)
    case (.root, .success(let listing)):
      switch MaildirLayout(root: listing) {
      case .maildirPlusPlus:
        for folder in MaildirLayout.plusPlusFolders(root: listing) where selects(folder) {
          if !folder.directory.isEmpty { watches.look(at: folder.directory, as: .directory, into: &turn) }
          lookInto(folder, into: &turn)
        }
      case .verbatim:
        for child in MaildirLayout.verbatimChildren(of: [], listing: listing) {
          watches.look(at: child, as: .directory, into: &turn)
        }
      }
    case (.directory, .success(let listing)) where tag.first != UInt8(ascii: "."):
      // A Verbatim directory: a folder itself, maybe, and the place of others.
      if let folder = MaildirLayout.verbatimFolder(tag, listing: listing), selects(folder) {
        lookInto(folder, into: &turn)
      }
      for child in MaildirLayout.verbatimChildren(of: tag, listing: listing) {
        watches.look(at: child, as: .directory, into: &turn)
      }
    default:
      break
    }
    if watches.isListed { finish(into: &turn) }
  }

  /// Every listing is in: the channels hold what they show, then the events meanwhile apply.
  private mutating func finish(into turn: inout SourceTurn) {
    guard let (done, again) = watches.finish(into: &turn) else { return }
    var found: [ChannelName: [ListedItem]] = [:]
    for channel in channels { found[channel] = [] }
    var present: Set<ChannelName> = []
    if case .fixed(let channel) = channel { present.insert(channel) }
    for (tag, role) in done.roles {
      guard case .items(let messages) = role else { continue }
      let channel = channel(of: messages.folder)
      present.insert(channel)
      found[channel, default: []] += (done.listings[tag] ?? []).compactMap { entry in
        guard entry.type != .directory, let message = MaildirName(entry.name), message.isUnread(in: messages.place)
        else { return nil }
        return ListedItem(message.unique, at: ItemPlace(directory: tag, name: entry.name))
      }
    }
    for (channel, items) in found.sorted(by: { "\($0.key)" < "\($1.key)" }) { turn.change(channel, .replace(items)) }
    channels = present
    turn.health = .ok
    carryOn(done.queued, again: again, into: &turn)
  }

  /// One event of the source's inotify descriptor.
  mutating func event(_ event: FSEvent, into turn: inout SourceTurn) {
    if event.kind == .overflow { return recount(into: &turn) }
    guard !watches.keep(event), let role = watches.roles[event.tag] else { return }
    if watches.isStructural(event, role) { return recount(into: &turn) }
    guard case .items(let messages) = role, !event.isDirectory, let message = MaildirName(event.name) else { return }
    let channel = channel(of: messages.folder)
    let at = ItemPlace(directory: event.tag, name: event.name)
    switch event.kind {
    case .appeared:
      channels.insert(channel)
      turn.change(
        channel, message.isUnread(in: messages.place) ? .add(ListedItem(message.unique, at: at)) : .drop(message.unique)
      )
    case .departed:
      turn.change(channel, .remove(message.unique, at: at))
    case .watchedGone, .overflow, .written:
      break
    }
  }

  /// The renames that mark these items read: `new/X` → `cur/X:2,S`, `cur/X:2,FR` →
  /// `cur/X:2,FRS`. Their events lower the count the ordinary way.
  func markRead(_ items: [ListedItem]) -> [SourceAction] {
    items.compactMap { item in
      guard case .items(let messages) = watches.roles[item.place.directory],
        let message = MaildirName(item.place.name), let read = message.markedRead(from: messages.place)
      else { return nil }
      let cur = BytePath.join(messages.folder.directory, Array(MaildirPlace.cur.rawValue.utf8))
      return .rename(
        source: name, from: BytePath.join(BytePath.join(watches.root, item.place.directory), item.place.name),
        to: BytePath.join(BytePath.join(watches.root, cur), read.bytes))
    }
  }
}
