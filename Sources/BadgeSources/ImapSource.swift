import BadgeCore

/// An imap source's decisions: which channel each folder counts into, how its connections'
/// findings change those channels' items, its state, and marking read. The connections
/// themselves are the program's IMAP driver's (`ImapJob`, `ImapEvent`).
///
/// An item is one unseen message: its place is the folder (`directory`) and its UID in
/// decimal (`name`); its identity is both, `folder/uid`, as a UID is unique only within its
/// folder and a fixed channel adds up every folder. The choices the design left open, made here:
/// - The first recount starts the connections; every later one (resume, the daemon's
///   connection) asks them to prove themselves alive (`.check`): what they hold is kept exact
///   by the server's pushes, and a dead one reconnects and resyncs.
/// - The source is `ok` once every watched folder's connection is up and has synced since it
///   last went down; a failing connection (the account's listing first, then the folders in
///   order) makes it `retrying` with that connection's reason and time, the counts staying as
///   they were (stale). A connection connecting again after a failure leaves it so until ok.
/// - No folder matching `folders` is `waiting` for one, count 0.
/// - The folders left unwatched by `max_connections` are logged once, by name.
/// - A folder no longer watched (a later listing) has its messages dropped.
struct ImapSource {
  let name: String
  /// The settings, `~/` expanded, as the driver gets them.
  let settings: ImapSettings
  let channel: SourceChannel
  private var started = false
  /// The watched folders in the driver's order; `nil` until it says.
  private var watched: [String]?
  private var unseen: [String: Set<UInt32>] = [:]
  /// The folders synced since their connection last went down.
  private var synced: Set<String> = []
  /// The failure last reported and its retry's wall time, worked out once: the same failure
  /// told again (a folder's set arriving while its connection still waits) is the same
  /// state, not another failed attempt one millisecond off (the two clocks' milliseconds do
  /// not tick together).
  private var retry: (reason: String, retryAt: UInt64, at: Int64)?
  private var states: [String: ImapConnectionState] = [:]
  /// The account's listing connection.
  private var account: ImapConnectionState?
  private var unwatched: [String] = []
  /// The channels this source made.
  private var channels: Set<ChannelName> = []

  init(name: String, settings: ImapSettings, channel: SourceChannel, home: [UInt8]) {
    self.name = name
    self.settings = settings.expanded(home: home)
    self.channel = channel
  }

  /// The channel a folder counts into.
  func channel(of folder: String) -> ChannelName {
    switch channel {
    case .fixed(let name): return name
    case .template(let template): return template.channel(forFolder: Array(folder.utf8))
    }
  }

  /// Start: the connections; later: a liveness check of each.
  mutating func recount(into turn: inout SourceTurn) {
    turn.actions.append(.imap(source: name, started ? .check : .start(settings)))
    started = true
  }

  /// What a connection found.
  mutating func event(_ event: ImapEvent, at time: SourceTime, into turn: inout SourceTurn) {
    switch event {
    case .folders(let watched, let unwatched):
      folders(watched, unwatched, into: &turn)
    case .synced(let folder, let uids):
      guard watches(folder) else { return }
      unseen[folder] = Set(uids)
      synced.insert(folder)
      turn.change(channel(of: folder), .replace(items(of: channel(of: folder))))
    case .changed(let folder, let added, let removed):
      guard watches(folder) else { return }
      for uid in added where unseen[folder, default: []].insert(uid).inserted {
        turn.change(channel(of: folder), .add(ImapSource.item(folder, uid)))
      }
      drop(removed, of: folder, into: &turn)
    case .marked(let folder, let uids):
      guard watches(folder) else { return }
      drop(uids, of: folder, into: &turn)
    case .connection(let folder?, let state):
      guard watches(folder) else { return }
      states[folder] = state
      if state != .ok { synced.remove(folder) }
    case .connection(nil, let state):
      account = state
    }
    health(at: time, into: &turn)
  }

  private func watches(_ folder: String) -> Bool { watched?.contains(folder) == true }

  /// The folders the driver connects: channels made for them, those of folders it no longer
  /// watches emptied of their messages.
  private mutating func folders(_ now: [String], _ left: [String], into turn: inout SourceTurn) {
    // A listing: the account's connection did its work.
    account = .ok
    let before = watched ?? []
    watched = now
    var touched: [ChannelName] = []
    for folder in before where !now.contains(folder) {
      unseen[folder] = nil
      synced.remove(folder)
      states[folder] = nil
      touched.append(channel(of: folder))
    }
    if case .fixed(let name) = channel, !channels.contains(name) { touched.append(name) }
    touched += now.map(channel(of:)).filter { !channels.contains($0) }
    for channel in touched where !turn.changes.contains(where: { $0.channel == channel }) {
      channels.insert(channel)
      turn.change(channel, .replace(items(of: channel)))
    }
    if !left.isEmpty && left != unwatched {
      turn.actions.append(
        .log(
          .warning,
          "Source \(name): max_connections = \(settings.maxConnections) leaves these folders unwatched: "
            + "\(left.joined(separator: ", "))."))
    }
    unwatched = left
  }

  private mutating func drop(_ uids: [UInt32], of folder: String, into turn: inout SourceTurn) {
    for uid in uids where unseen[folder]?.remove(uid) != nil {
      turn.change(channel(of: folder), .drop(ImapSource.identity(folder, uid)))
    }
  }

  /// Every unseen message of the folders counted into `channel`.
  private func items(of channel: ChannelName) -> [ListedItem] {
    (watched ?? []).filter { self.channel(of: $0) == channel }.flatMap { folder in
      (unseen[folder] ?? []).sorted().map { ImapSource.item(folder, $0) }
    }
  }

  /// The state the connections make.
  private mutating func health(at time: SourceTime, into turn: inout SourceTurn) {
    for case .failed(let reason, let retryAt)? in [account] + (watched ?? []).map({ states[$0] }) {
      if let retry, retry.reason == reason, retry.retryAt == retryAt {
        turn.health = .retrying(at: retry.at, because: reason)
        return
      }
      let wait = Int64(clamping: retryAt > time.boottime ? (retryAt - time.boottime) / 1000 : 0)
      retry = (reason, retryAt, time.wallMs + wait)
      turn.health = .retrying(at: time.wallMs + wait, because: reason)
      return
    }
    guard let watched else { return }
    if watched.isEmpty {
      turn.health = .waiting(for: "a folder matching \(settings.folders.joined(separator: ", "))")
    } else if watched.allSatisfy({ states[$0] == .ok && synced.contains($0) }) {
      turn.health = .ok
    }
  }

  /// `\Seen` on exactly these messages: one job per folder, folders in name order.
  func markRead(_ items: [ListedItem]) -> [SourceAction] {
    var uids: [String: [UInt32]] = [:]
    for item in items {
      guard let uid = UInt32(String(decoding: item.place.name, as: UTF8.self)) else { continue }
      uids[String(decoding: item.place.directory, as: UTF8.self), default: []].append(uid)
    }
    return uids.sorted { $0.key < $1.key }.map {
      .imap(source: name, .markRead(folder: $0.key, uids: $0.value.sorted()))
    }
  }

  /// A message: identity `folder/uid`, at folder and UID.
  static func item(_ folder: String, _ uid: UInt32) -> ListedItem {
    ListedItem(identity(folder, uid), at: ItemPlace(directory: Array(folder.utf8), name: Array(String(uid).utf8)))
  }

  /// `folder/uid`: unique across folders, as the UID, last, holds no `/`.
  static func identity(_ folder: String, _ uid: UInt32) -> [UInt8] {
    BytePath.join(Array(folder.utf8), Array(String(uid).utf8))
  }
}
