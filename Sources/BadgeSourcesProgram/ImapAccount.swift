import BadgeCore
import BadgeSources
import BadgeSystem

/// An IMAP source's account: a connection per watched folder, each on a thread of its own
/// (`ImapConnection`), and their news on the loop as the core's `ImapEvent`s.
///
/// `folders` globs are expanded once, by a listing connection, before the folders' own
/// connections start (literal names need none); at most `max_connections` folders are watched,
/// the first in the server's order, and the others told to the core as not watched.
final class ImapAccount {
  let source: String
  let settings: ImapSettings
  private let deliver: (ImapEvent) -> Void
  private var inbox: LoopInbox<(ImapConnection.Purpose, ImapConnection.News)>!
  private var listing: ImapConnection?
  private var folders: [String: ImapConnection] = [:]

  /// Starts the account's connections; `deliver` gets their news on the loop's thread.
  ///
  /// - Throws: `SystemError` when a thread or its pipe cannot be made.
  init(loop: EventLoop, source: String, settings: ImapSettings, deliver: @escaping (ImapEvent) -> Void)
    throws(SystemError)
  {
    self.source = source
    self.settings = settings
    self.deliver = deliver
    inbox = try LoopInbox(loop: loop) { [unowned self] item in receive(item.0, item.1) }
    let globs = settings.folders.map { ByteGlob($0) }
    if globs.allSatisfy(\.isLiteral) {
      var names: [String] = []
      for name in settings.folders where !names.contains(name) { names.append(name) }
      try watch(names)
    } else {
      listing = try connection(.listing)
    }
  }

  /// Marks `uids` of `folder` read on the server.
  func markRead(folder: String, uids: [UInt32]) { folders[folder]?.markRead(uids) }

  /// After a resume: every connection proves itself alive, and one waiting to retry tries now.
  func check() {
    listing?.check()
    for connection in folders.values { connection.check() }
  }

  /// Ends every connection; news not yet delivered is dropped.
  func stop() {
    listing?.stop()
    listing = nil
    for connection in folders.values { connection.stop() }
    folders = [:]
    inbox.close()
  }

  private func connection(_ purpose: ImapConnection.Purpose) throws(SystemError) -> ImapConnection {
    try ImapConnection(settings: settings, purpose: purpose) { [inbox] news in inbox!.post((purpose, news)) }
  }

  /// The folders to watch, of `names` (in the server's order): the first `max_connections`
  /// that match, told to the core with the others that match, then connected.
  private func watch(_ names: [String]) throws(SystemError) {
    let globs = settings.folders.map { ByteGlob($0) }
    let matching = names.filter { name in globs.contains { $0.matches(Array(name.utf8)) } }
    let watched = Array(matching.prefix(settings.maxConnections))
    deliver(.folders(watched: watched, unwatched: Array(matching.dropFirst(settings.maxConnections))))
    for name in watched { folders[name] = try connection(.folder(name)) }
  }

  /// On the loop: one connection's news.
  private func receive(_ purpose: ImapConnection.Purpose, _ news: ImapConnection.News) {
    switch (purpose, news) {
    case (.listing, .listed(let names)):
      listing?.stop()
      listing = nil
      do {
        try watch(names)
      } catch {
        deliver(.connection(folder: nil, .failed("cannot start a connection's thread: \(error)", retryAt: 0)))
      }
    case (.listing, .state(let state)):
      deliver(.connection(folder: nil, state))
    case (.listing, _):
      break
    case (.folder(let folder), .synced(let unseen)):
      deliver(.synced(folder: folder, unseen: unseen))
    case (.folder(let folder), .changed(let added, let removed)):
      deliver(.changed(folder: folder, added: added, removed: removed))
    case (.folder(let folder), .marked(let uids)):
      deliver(.marked(folder: folder, uids: uids))
    case (.folder(let folder), .state(let state)):
      deliver(.connection(folder: folder, state))
    case (.folder, .listed):
      break
    }
  }
}
