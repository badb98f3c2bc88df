import BadgeSources
import BadgeSystem

/// One source's inotify instance and its watches: each watch descriptor with the tag the
/// core gave it, so that the events read come back to the core as `FSEvent`s under their tags.
///
/// A source has an instance of its own (`Inotify`), so an overflow names the source that must
/// recount. A watch whose directory went (deleted, moved away) is dropped at its first
/// `_SELF` event and told once as `.watchedGone`: the core watches the tag again if the
/// directory comes back, and no descriptor of a moved directory is left behind.
final class WatchTable {
  let source: String
  private let inotify: Inotify
  private var reading: IOSource?
  private var tags: [InotifyWatch: WatchTag] = [:]
  private var watches: [WatchTag: InotifyWatch] = [:]

  /// Starts reading the source's instance on `loop`; `onEvents` gets each batch, decoded,
  /// `onFailure` a read that failed (the table reads no more then).
  init(
    source: String, loop: EventLoop, onEvents: @escaping ([FSEvent]) -> Void,
    onFailure: @escaping (Errno) -> Void
  ) throws(SystemError) {
    self.source = source
    inotify = try Inotify()
    do throws(SystemError) {
      reading = try inotify.watch(on: loop) { [unowned self] result in
        switch result {
        case .success(let events):
          let decoded = decode(events)
          if !decoded.isEmpty { onEvents(decoded) }
        case .failure(let error):
          reading?.cancel()
          onFailure(error)
        }
      }
    } catch {
      inotify.close()
      throw error
    }
  }

  /// How many watches the instance holds.
  var count: Int { watches.count }

  /// Watches `path` for `purpose` under `tag`, replacing the tag's watch; a path that cannot be
  /// watched (missing, not a folder) is no watch, which the listing that follows tells the core.
  func watch(_ tag: WatchTag, path: [UInt8], purpose: WatchPurpose) throws(InotifyWatchError) {
    let added: InotifyWatch
    do throws(InotifyWatchError) {
      added = try inotify.addWatch(path, mask: WatchTable.mask(for: purpose))
    } catch {
      unwatch(tag)
      throw error
    }
    if let old = watches[tag], old != added { unwatch(tag) }
    if let other = tags[added], other != tag { watches[other] = nil }
    watches[tag] = added
    tags[added] = tag
  }

  /// Stops watching `tag`.
  func unwatch(_ tag: WatchTag) {
    guard let watch = watches.removeValue(forKey: tag) else { return }
    tags[watch] = nil
    try? inotify.removeWatch(watch)
  }

  /// Stops reading and closes the instance with every watch.
  func close() {
    reading?.cancel()
    reading = nil
    inotify.close()
    tags = [:]
    watches = [:]
  }

  /// The mask of a watch for `purpose` (`WatchPurpose` says which events each needs).
  static func mask(for purpose: WatchPurpose) -> InotifyMask {
    let gone: InotifyMask = [.deletedSelf, .movedSelf, .onlyFolder]
    switch purpose {
    case .items, .folders: return gone.union([.created, .movedTo, .movedFrom, .deleted])
    case .database: return gone.union([.movedTo, .closedWrite])
    }
  }

  /// `events` under their tags, in order; events of watches dropped already are left out.
  func decode(_ events: [InotifyEvent]) -> [FSEvent] {
    var decoded: [FSEvent] = []
    for event in events {
      guard case .change(let change) = event else {
        decoded.append(.overflow)
        continue
      }
      guard let tag = tags[change.watch] else { continue }
      let mask = change.mask
      if !mask.isDisjoint(with: [.deletedSelf, .movedSelf, .ignored]) {
        decoded.append(FSEvent(.watchedGone, tag: tag))
        if mask.contains(.ignored) {
          tags[change.watch] = nil
          watches[tag] = nil
        } else {
          unwatch(tag)
        }
        continue
      }
      let kind: FSEvent.Kind
      if !mask.isDisjoint(with: [.created, .movedTo]) {
        kind = .appeared
      } else if !mask.isDisjoint(with: [.deleted, .movedFrom]) {
        kind = .departed
      } else if mask.contains(.closedWrite) {
        kind = .written
      } else {
        continue
      }
      decoded.append(FSEvent(kind, tag: tag, name: change.name, isDirectory: mask.contains(.isFolder)))
    }
    return decoded
  }
}
