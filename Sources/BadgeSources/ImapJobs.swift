/// What an imap source asks of the program's IMAP driver, which keeps a connection per watched
/// folder on a thread of its own; what those connections find comes back as `ImapEvent`s.
public enum ImapJob: Equatable, Sendable {
  /// Connect every folder (the globs expanded by a listing first), kept running, reconnected
  /// with back-off, until `.stop`.
  case start(ImapSettings)
  /// `UID STORE +FLAGS.SILENT (\Seen)` on exactly these messages of `folder`.
  case markRead(folder: String, uids: [UInt32])
  /// After a resume: prove each connection alive (a NOOP answered in time), else reconnect.
  case check
  /// Close every connection of the source.
  case stop
}

/// What an imap source's connections found.
public enum ImapEvent: Equatable, Sendable {
  /// The folders connected (the listing's names that match `folders`, or the literal names),
  /// at most `max_connections`, and those left unwatched.
  case folders(watched: [String], unwatched: [String])
  /// The folder's whole unseen set (after SELECT, a reconnect's resync, a new UIDVALIDITY).
  case synced(folder: String, unseen: [UInt32])
  /// Unseen messages that came and left since.
  case changed(folder: String, added: [UInt32], removed: [UInt32])
  /// A connection's state; `nil` folder: the account's listing connection.
  case connection(folder: String?, ImapConnectionState)
  /// `\Seen` was set on these messages.
  case marked(folder: String, uids: [UInt32])
}

/// One connection's state.
public enum ImapConnectionState: Equatable, Sendable {
  /// Connecting, logging in, selecting.
  case connecting
  /// Selected and in IDLE (or listed, for the account's connection).
  case ok
  /// It failed for this reason (one line) and tries again at `retryAt`, boot time in
  /// microseconds as `SourceTime.boottime`.
  case failed(String, retryAt: UInt64)
}
