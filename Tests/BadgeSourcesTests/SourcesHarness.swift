import BadgeCore
import BadgeProtocol
import BadgeSources

/// A `SourcesCore` driven by hand over folders kept in memory and a daemon played by the test:
/// the core's listings are answered from the folders, its renames done in them, each change
/// to the folders reported to the watches on them as inotify would, and its writes applied as
/// the daemon applies a report (`rise = max(k, n − count)` added to `total`).
final class SourcesHarness {
  let core: SourcesCore
  var time = SourceTime(monotonic: 5_000_000, boottime: 6_000_000, wallMs: 1_764_620_000_000)
  /// Directories by path, each name in them with whether it is a directory.
  private(set) var folders: [String: [String: Bool]] = [:]
  /// The watches: source and tag → path.
  private(set) var watches: [[String]: String] = [:]
  /// Listings asked for and not answered yet, oldest first.
  private(set) var listings: [(source: String, tag: WatchTag, path: String)] = []
  /// Whether listings are answered as soon as they are asked for.
  var listAtOnce = true
  /// Every request sent to the daemon, in order.
  private(set) var sent: [SourcesDaemonRequest] = []
  /// Writes sent and not answered yet.
  private(set) var unanswered: [SourcesDaemonRequest] = []
  /// The daemon's channels: count and total.
  var daemon: [String: (count: Int, total: Int)] = [:]
  /// Write ids the daemon applied.
  private(set) var applied: Set<String> = []
  var logs: [String] = []
  var connected = false

  init(_ config: String, home: String = "/home/u") throws {
    core = SourcesCore(config: try sources(config), home: Array(home.utf8), random: 0x7f3a_91c2, at: time)
  }

  /// Runs the core on `input`, then whatever its actions lead to; returns its actions.
  @discardableResult
  func run(_ input: SourceInput) -> [SourceAction] {
    core.handle(input, at: time)
    return collect()
  }

  @discardableResult
  func start() -> [SourceAction] {
    core.start()
    return collect()
  }

  /// The core's actions since the last call, performed: watches noted, listings answered (when
  /// `listAtOnce`), renames done, requests noted.
  func collect() -> [SourceAction] {
    var all: [SourceAction] = []
    while case let actions = core.takeActions(), !actions.isEmpty {
      all += actions
      for action in actions { perform(action) }
      if listAtOnce { all += answerListings() }
    }
    return all
  }

  private func perform(_ action: SourceAction) {
    switch action {
    case .watch(let source, let tag, let path, _): watches[[source, text(tag)]] = text(path)
    case .unwatch(let source, let tag): watches[[source, text(tag)]] = nil
    case .list(let source, let tag, let path): listings.append((source, tag, text(path)))
    case .rename(_, let from, let to):
      guard exists(text(from)) else { return }
      pendingRenames += move(text(from), to: text(to))
    case .request(let request):
      sent.append(request)
      if request.report != nil { unanswered.append(request) }
    case .log(_, let line): logs.append(line)
    case .spawn, .kill, .status, .armTimer, .reloadConfig, .notmuch, .imap: break
    }
  }

  /// Answers the listings asked for, from the folders; the actions they led to.
  @discardableResult
  func answerListings() -> [SourceAction] {
    var all: [SourceAction] = []
    while !listings.isEmpty {
      let (source, tag, path) = listings.removeFirst()
      let result: Result<[ListedName], ListingFailure>
      if let entries = folders[path] {
        result = .success(entries.sorted { $0.key < $1.key }.map { ListedName($0.key, $0.value ? .directory : .file) })
      } else {
        result = .failure(exists(path) ? .notADirectory : .missing)
      }
      core.handle(.listed(source: source, tag: tag, result), at: time)
      for action in core.takeActions() {
        all.append(action)
        perform(action)
      }
    }
    return all
  }

  /// Starts, connects, has the first writes answered, and lets a second pass, so that the
  /// next change is written at once.
  func startCounting() {
    start()
    connect()
    answerWrites()
    advance(ms: 1000)
  }

  // MARK: The daemon

  /// Connects to the daemon and answers the claims with the daemon's channels; the claims of
  /// `refused` are refused, as another source's claims are.
  @discardableResult
  func connect(refusing refused: Set<String> = []) -> [SourceAction] {
    connected = true
    core.handle(.daemonConnected, at: time)
    var actions = collect()
    for channel in actions.requests.compactMap(\.claimed) {
      let state = daemon["\(channel)"] ?? (0, 0)
      let answer: SourcesDaemonAnswer =
        refused.contains("\(channel)")
        ? .refused(id: nil, reason: "claimed '\(channel)' is counted by another source")
        : .claimed(channel, count: state.count, total: state.total)
      core.handle(.daemon(answer), at: time)
      actions += collect()
    }
    return actions
  }

  /// The daemon answers every write sent, applying each once.
  @discardableResult
  func answerWrites() -> [SourceAction] {
    var actions: [SourceAction] = []
    while !unanswered.isEmpty {
      guard let (channel, count, arrived, _, id) = unanswered.removeFirst().report else { continue }
      var state = daemon["\(channel)"] ?? (0, 0)
      if !applied.contains(id) {
        applied.insert(id)
        state.total += max(arrived, count - state.count)
        state.count = count
        daemon["\(channel)"] = state
      }
      core.handle(.daemon(.answered(id: id, total: state.total)), at: time)
      actions += collect()
    }
    return actions
  }

  /// The connection ends; writes on their way are lost or applied as `appliedFirst` says.
  @discardableResult
  func disconnect(appliedFirst: Bool = false) -> [SourceAction] {
    if appliedFirst {
      for (channel, count, arrived, _, id) in unanswered.compactMap(\.report) {
        var state = daemon["\(channel)"] ?? (0, 0)
        applied.insert(id)
        state.total += max(arrived, count - state.count)
        state.count = count
        daemon["\(channel)"] = state
      }
    }
    unanswered = []
    connected = false
    return run(.daemonClosed)
  }

  @discardableResult
  func advance(ms: UInt64) -> [SourceAction] {
    time.monotonic += ms * 1000
    time.boottime += ms * 1000
    time.wallMs += Int64(ms)
    return run(.tick)
  }

  // MARK: The folders

  func exists(_ path: String) -> Bool {
    let (parent, name) = split(path)
    return folders[path] != nil || folders[parent]?[name] != nil
  }

  /// Makes the directories of `paths` and their parents, quietly (before a start).
  func mkdir(_ paths: String...) {
    for path in paths {
      var built = ""
      for part in path.split(separator: "/") {
        let parent = built.isEmpty ? "/" : built
        built += "/" + part
        folders[parent, default: [:]][String(part)] = true
        folders[built, default: [:]] = folders[built] ?? [:]
      }
    }
  }

  /// A Maildir's `new`, `cur` and `tmp` under `path`.
  func maildir(_ path: String) { mkdir(path + "/new", path + "/cur", path + "/tmp") }

  /// Puts a file at `path` quietly (before a start).
  func place(_ paths: String...) {
    for path in paths {
      let (parent, name) = split(path)
      folders[parent, default: [:]][name] = false
    }
  }

  /// A file created at `path` (or a directory, `directory`), its event not yet read.
  func create(_ path: String, directory: Bool = false) -> [(String, FSEvent)] {
    let (parent, name) = split(path)
    folders[parent, default: [:]][name] = directory
    if directory { folders[path] = [:] }
    return events(.appeared, in: parent, name: name, directory: directory)
  }

  /// A file moved from `from` to `to`, its events not yet read.
  @discardableResult
  func move(_ from: String, to: String) -> [(String, FSEvent)] {
    let (fromParent, fromName) = split(from)
    let (toParent, toName) = split(to)
    let directory = folders[fromParent]?.removeValue(forKey: fromName) ?? false
    folders[toParent, default: [:]][toName] = directory
    if directory {
      for (path, entries) in folders where path == from || path.hasPrefix(from + "/") {
        folders[path] = nil
        folders[to + path.dropFirst(from.count)] = entries
      }
    }
    var happened = events(.departed, in: fromParent, name: fromName, directory: directory)
    if directory { happened += gone(from) }
    return happened + events(.appeared, in: toParent, name: toName, directory: directory)
  }

  /// Events of renames the core asked for, not yet read.
  var pendingRenames: [(String, FSEvent)] = []

  /// Removes a directory tree or a file at `path`, its events not yet read.
  func remove(_ path: String) -> [(String, FSEvent)] {
    let (parent, name) = split(path)
    let directory = folders[parent]?.removeValue(forKey: name) ?? false
    let happened = gone(path)
    for key in folders.keys where key == path || key.hasPrefix(path + "/") { folders[key] = nil }
    return happened + events(.departed, in: parent, name: name, directory: directory)
  }

  /// The watched directories at or under `path` going.
  private func gone(_ path: String) -> [(String, FSEvent)] {
    watches.filter { $0.value == path || $0.value.hasPrefix(path + "/") }.sorted { $0.value < $1.value }.map {
      ($0.key[0], FSEvent(.watchedGone, tag: Array($0.key[1].utf8)))
    }
  }

  private func events(_ kind: FSEvent.Kind, in directory: String, name: String, directory isDirectory: Bool)
    -> [(String, FSEvent)]
  {
    watches.filter { $0.value == directory }.sorted { $0.key[1] < $1.key[1] }.map {
      ($0.key[0], FSEvent(kind, tag: Array($0.key[1].utf8), name: Array(name.utf8), isDirectory: isDirectory))
    }
  }

  /// The core reads `events`, one batch per source in order.
  @discardableResult
  func read(_ events: [(String, FSEvent)]) -> [SourceAction] {
    var actions: [SourceAction] = []
    var rest = events[...]
    while let first = rest.first {
      let batch = rest.prefix { $0.0 == first.0 }
      rest = rest.dropFirst(batch.count)
      actions += run(.fsEvents(source: first.0, batch.map(\.1)))
    }
    return actions
  }

  /// The core reads the events of its own renames.
  @discardableResult
  func readRenames() -> [SourceAction] {
    defer { pendingRenames = [] }
    return read(pendingRenames)
  }

  private func split(_ path: String) -> (String, String) {
    let cut = path.lastIndex(of: "/")!
    let parent = String(path[..<cut])
    return (parent.isEmpty ? "/" : parent, String(path[path.index(after: cut)...]))
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension [SourceAction] {
  var requests: [SourcesDaemonRequest] {
    compactMap {
      if case .request(let request) = $0 { return request }
      return nil
    }
  }

  /// The writes, as `SET` lines.
  var writes: [String] {
    requests.compactMap {
      guard let (channel, count, arrived, unseen, id) = $0.report else { return nil }
      return "SET \(channel) \(count) new=\(arrived)" + (unseen.map { " unseen=\($0)" } ?? "") + " id=\(id)"
    }
  }

  var lists: [String] {
    compactMap {
      if case .list(_, _, let path) = $0 { return String(decoding: path, as: UTF8.self) }
      return nil
    }
  }

  var renames: [String] {
    compactMap {
      if case .rename(_, let from, let to) = $0 {
        return String(decoding: from, as: UTF8.self) + " -> " + String(decoding: to, as: UTF8.self)
      }
      return nil
    }
  }
}

/// The requests as the tests name them, and the figures of a write.
extension SourcesDaemonRequest {
  static let attach = SourcesDaemonRequest(.sources(.attach))

  static func release(source: String, channel: ChannelName) -> SourcesDaemonRequest {
    SourcesDaemonRequest(.source(source, .release(channel)))
  }

  static func config(error: String?) -> SourcesDaemonRequest { SourcesDaemonRequest(.sources(.config(error: error))) }

  static func status(_ status: SourceStatus) -> SourcesDaemonRequest {
    SourcesDaemonRequest(.source(status.name, .status(status)))
  }

  /// A write's channel, count, new items, unseen items and id; `nil` for any other request.
  var report: (channel: ChannelName, count: Int, arrived: Int, unseen: Int?, id: String)? {
    guard case .write(let channel, .report(let count, let arrived, let unseen)) = request, let id else { return nil }
    return (channel, count, arrived, unseen, id)
  }

  /// The channel a claim claims; `nil` for any other request.
  var claimed: ChannelName? {
    guard case .source(_, .claim(let channel, _)) = request else { return nil }
    return channel
  }
}
