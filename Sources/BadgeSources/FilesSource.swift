import BadgeCore

/// A files source's decisions: the files under its folder whose names match its globs, one
/// item each (identity: the path relative to the folder, so each new download counts once);
/// its watches and recounts are `FolderWatches'`, as a maildir source's are.
///
/// Directories never count; dot-names count only with `hidden` (and are descended into only
/// then); subfolders count with `recursive`, to `FilesSettings.maxDepth`, each watched. A
/// subfolder made, moved in or out, or replaced recounts the source. The choices the design
/// left open, made here: a name whose type the listing did not tell (`d_type` unknown) counts
/// as a file unless listing it as a folder succeeded.
struct FilesSource: FolderCounting {
  /// A directory's depth below the root (the root is 0 and has the role `.root`).
  typealias Role = FolderRole<Int>

  let name: String
  let settings: FilesSettings
  let channel: ChannelName
  var watches: FolderWatches<Int>
  var countedChannels: [ChannelName] { [channel] }

  init(name: String, settings: FilesSettings, channel: ChannelName, home: [UInt8]) {
    self.name = name
    self.settings = settings
    self.channel = channel
    watches = FolderWatches(source: name, root: BytePath.expand(settings.path, home: home))
  }

  /// Whether files in a directory of this role count: the root's and its subfolders'.
  private static func holdsFiles(_ role: Role) -> Bool {
    switch role {
    case .root, .items: return true
    case .parent, .directory: return false
    }
  }

  /// Whether a file's own name counts.
  private func counts(_ file: [UInt8]) -> Bool {
    guard settings.hidden || file.first != UInt8(ascii: ".") else { return false }
    return settings.match.contains { $0.matches(file) }
  }

  /// Whether a directory is looked into.
  private func descends(into directory: [UInt8], depth: Int) -> Bool {
    settings.recursive && depth < FilesSettings.maxDepth && (settings.hidden || directory.first != UInt8(ascii: "."))
  }

  mutating func recount(into turn: inout SourceTurn) {
    if watches.start(into: &turn) { turn.health = .recounting }
  }

  mutating func listed(_ tag: WatchTag, _ result: Result<[ListedName], ListingFailure>, into turn: inout SourceTurn) {
    guard let role = watches.listed(tag, result) else { return }
    if role == .root, case .failure(let failure) = result { return rootFailed(failure, into: &turn) }
    let depth: Int
    switch role {
    case .root: depth = 0
    case .items(let below): depth = below
    case .parent, .directory: return
    }
    for entry in (try? result.get()) ?? [] where entry.mayBeDirectory && descends(into: entry.name, depth: depth) {
      watches.look(at: BytePath.join(tag, entry.name), as: .items(depth + 1), into: &turn)
    }
    if watches.isListed { finish(into: &turn) }
  }

  private mutating func finish(into turn: inout SourceTurn) {
    guard let (done, again) = watches.finish(into: &turn) else { return }
    let folders = Set(done.roles.keys)
    var items: [ListedItem] = []
    for (tag, role) in done.roles where FilesSource.holdsFiles(role) {
      for entry in done.listings[tag] ?? [] where entry.type != .directory && counts(entry.name) {
        let path = BytePath.join(tag, entry.name)
        if entry.type == .unknown && folders.contains(path) { continue }
        items.append(ListedItem(path, at: ItemPlace(directory: tag, name: entry.name)))
      }
    }
    turn.change(channel, .replace(items))
    turn.health = .ok
    carryOn(done.queued, again: again, into: &turn)
  }

  mutating func event(_ event: FSEvent, into turn: inout SourceTurn) {
    if event.kind == .overflow { return recount(into: &turn) }
    guard !watches.keep(event), let role = watches.roles[event.tag] else { return }
    // In the root, which holds files, only its going is structural; its folders are below.
    if watches.isStructural(event, role) && (role != .root || event.kind == .watchedGone) {
      return recount(into: &turn)
    }
    guard FilesSource.holdsFiles(role) else { return }
    if event.isDirectory {
      let depth = if case .items(let below) = role { below } else { 0 }
      if descends(into: event.name, depth: depth) { recount(into: &turn) }
      return
    }
    guard counts(event.name) else { return }
    let path = BytePath.join(event.tag, event.name)
    let at = ItemPlace(directory: event.tag, name: event.name)
    switch event.kind {
    case .appeared: turn.change(channel, .add(ListedItem(path, at: at)))
    case .departed: turn.change(channel, .remove(path, at: at))
    case .watchedGone, .overflow, .written: break
    }
  }
}
