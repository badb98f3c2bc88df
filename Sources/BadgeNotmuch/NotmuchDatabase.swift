import CNotmuch
import Glibc

/// One open notmuch database, through libnotmuch (never by spawning `notmuch`).
///
/// Read-only for counting: a reader sees the revision it opened (or last reopened) at, so a
/// change is seen by `reopen()` and a new `revision`, and is never held up by a writer.
/// Read-write only to mark read, which then holds Xapian's write lock. libnotmuch opens a
/// writer with Xapian's `DB_RETRY_LOCK`: while `notmuch new` or `notmuch tag` writes, a
/// read-write open does not fail, it blocks until the lock is let go (NotmuchDatabaseTests
/// pins it), so it belongs on a thread that may wait, never on the event loop's.
///
/// Not safe to share between threads: one thread owns a database.
public final class NotmuchDatabase {
  /// How the database is opened.
  public enum Mode: Sendable {
    case readOnly
    case readWrite

    var raw: notmuch_database_mode_t {
      self == .readOnly ? NOTMUCH_DATABASE_MODE_READ_ONLY : NOTMUCH_DATABASE_MODE_READ_WRITE
    }
  }

  /// The `notmuch_database_t *`.
  private var raw: OpaquePointer?
  public private(set) var mode: Mode

  /// Opens the database at `path`, or where the config file says when `nil`, with the config
  /// file `config`, or the one notmuch's own lookup finds when `nil` (`$NOTMUCH_CONFIG`, then
  /// `$XDG_CONFIG_HOME/notmuch/<profile>/config`, then `~/.notmuch-config`), and `profile`
  /// (`nil`: `$NOTMUCH_PROFILE` or the default one). The config gives the exclude tags and
  /// `maildir.synchronize_flags`.
  public init(
    path: String? = nil, config: String? = nil, profile: String? = nil, mode: Mode = .readOnly
  ) throws(NotmuchError) {
    var database: OpaquePointer?
    var message: UnsafeMutablePointer<CChar>?
    let status = notmuch_database_open_with_config(path, mode.raw, config, profile, &database, &message)
    let text = message.map { String(cString: $0) }
    free(message)
    guard status == NOTMUCH_STATUS_SUCCESS, let database else {
      throw NotmuchError("open the notmuch database", NotmuchStatus(status), message: Self.trimmed(text))
    }
    raw = database
    self.mode = mode
  }

  deinit { close() }

  /// Lets go of the database (and of the write lock, read-write); later calls fail.
  public func close() {
    if let raw { notmuch_database_destroy(raw) }
    raw = nil
  }

  /// The database's folder (`notmuch_database_get_path`): the mail root, or the folder the
  /// config names.
  public var path: String {
    guard let raw, let path = notmuch_database_get_path(raw) else { return "" }
    return String(cString: path)
  }

  /// The committed revision as of the open or the last `reopen()`, and the database's UUID:
  /// two revisions compare only under the same UUID (a rebuilt or compacted database has
  /// another).
  public var revision: NotmuchRevision {
    guard let raw else { return NotmuchRevision(number: 0, uuid: "") }
    var uuid: UnsafePointer<CChar>?
    let number = notmuch_database_get_revision(raw, &uuid)
    return NotmuchRevision(number: UInt64(number), uuid: uuid.map { String(cString: $0) } ?? "")
  }

  /// Reopens the database in `mode`, so that a reader sees what writers committed since.
  public func reopen(mode: Mode? = nil) throws(NotmuchError) {
    let mode = mode ?? self.mode
    try check(notmuch_database_reopen(try opened(), mode.raw), "reopen the notmuch database")
    self.mode = mode
  }

  /// The tags of `search.exclude_tags` in the config.
  public var excludedTags: [String] {
    guard let raw else { return [] }
    return Self.strings(notmuch_config_get_values(raw, NOTMUCH_CONFIG_EXCLUDE_TAGS))
  }

  /// Whether `maildir.synchronize_flags` is on (notmuch's default is on): tags then rename
  /// the message's files (`unread` ↔ the `S` flag).
  public var synchronizesMaildirFlags: Bool {
    guard let raw else { return false }
    var value: notmuch_bool_t = 0
    guard notmuch_config_get_bool(raw, NOTMUCH_CONFIG_SYNC_MAILDIR_FLAGS, &value) == NOTMUCH_STATUS_SUCCESS
    else { return true }
    return value != 0
  }

  /// The number of messages matching `query`, without those tagged with an excluded tag when
  /// `excluding` is on (as `notmuch count` counts; a query naming such a tag still matches it).
  public func count(_ query: String, excluding: Bool = true) throws(NotmuchError) -> Int {
    try withQuery(query, excluding: excluding) { q throws(NotmuchError) in
      var count: UInt32 = 0
      try check(notmuch_query_count_messages(q, &count), "count '\(query)'")
      return Int(count)
    }
  }

  /// The message ids (without `id:` or angle brackets) of the messages matching `query`,
  /// excluded tags applied as by `count`.
  public func messageIDs(_ query: String, excluding: Bool = true) throws(NotmuchError) -> [String] {
    try withQuery(query, excluding: excluding) { q throws(NotmuchError) in
      var messages: OpaquePointer?
      try check(notmuch_query_search_messages(q, &messages), "search '\(query)'")
      defer { notmuch_messages_destroy(messages) }
      var ids: [String] = []
      while notmuch_messages_valid(messages) != 0 {
        let message = notmuch_messages_get(messages)
        if let id = notmuch_message_get_message_id(message) { ids.append(String(cString: id)) }
        notmuch_message_destroy(message)
        notmuch_messages_move_to_next(messages)
      }
      return ids
    }
  }

  /// Removes the `unread` tag from the messages with `ids` in one atomic section (committed
  /// together: a reader sees none of them read or all, unless one fails, which ends the section
  /// with those done before it), renaming their files to carry the `S` flag when the config
  /// synchronizes flags. Needs a read-write database.
  ///
  /// - Returns: the ids that are not in the database (removed meanwhile).
  @discardableResult
  public func markRead(_ ids: [String]) throws(NotmuchError) -> [String] {
    let raw = try opened()
    let synchronize = synchronizesMaildirFlags
    try check(notmuch_database_begin_atomic(raw), "begin an atomic section")
    var missing: [String] = []
    var failure: NotmuchError?
    for id in ids {
      var message: OpaquePointer?
      let found = notmuch_database_find_message(raw, id, &message)
      guard found == NOTMUCH_STATUS_SUCCESS else {
        failure = NotmuchError("find message '\(id)'", NotmuchStatus(found))
        break
      }
      guard let message else {
        missing.append(id)
        continue
      }
      defer { notmuch_message_destroy(message) }
      var status = notmuch_message_remove_tag(message, "unread")
      if status == NOTMUCH_STATUS_SUCCESS && synchronize { status = notmuch_message_tags_to_maildir_flags(message) }
      if status != NOTMUCH_STATUS_SUCCESS {
        failure = NotmuchError("mark message '\(id)' read", NotmuchStatus(status))
        break
      }
    }
    let ended = notmuch_database_end_atomic(raw)
    if let failure { throw failure }
    try check(ended, "end an atomic section")
    return missing
  }

  /// Runs `body` with a query for `query`, destroyed afterwards.
  private func withQuery<R>(
    _ query: String, excluding: Bool, _ body: (OpaquePointer) throws(NotmuchError) -> R
  ) throws(NotmuchError) -> R {
    guard let q = notmuch_query_create(try opened(), query) else {
      throw NotmuchError("query '\(query)'", NotmuchStatus(NOTMUCH_STATUS_OUT_OF_MEMORY))
    }
    defer { notmuch_query_destroy(q) }
    if excluding {
      for tag in excludedTags {
        // `IGNORED`: the query names the tag itself, so it is not excluded (as `notmuch count`).
        // notmuch parses the query here first: one it cannot parse fails here, so the error
        // names the query.
        let status = notmuch_query_add_tag_exclude(q, tag)
        if status != NOTMUCH_STATUS_IGNORED { try check(status, "exclude tag '\(tag)' from '\(query)'") }
      }
    }
    return try body(q)
  }

  private func opened() throws(NotmuchError) -> OpaquePointer {
    guard let raw else {
      throw NotmuchError("use the notmuch database", NotmuchStatus(NOTMUCH_STATUS_CLOSED_DATABASE))
    }
    return raw
  }

  private func check(_ status: notmuch_status_t, _ operation: String) throws(NotmuchError) {
    guard status == NOTMUCH_STATUS_SUCCESS else { throw NotmuchError(operation, NotmuchStatus(status)) }
  }

  /// Every string of a config values iterator, which is destroyed.
  private static func strings(_ values: OpaquePointer?) -> [String] {
    guard let values else { return [] }
    defer { notmuch_config_values_destroy(values) }
    var strings: [String] = []
    while notmuch_config_values_valid(values) != 0 {
      if let value = notmuch_config_values_get(values) { strings.append(String(cString: value)) }
      notmuch_config_values_move_to_next(values)
    }
    return strings
  }

  /// libnotmuch's message without its line ends; `nil` when empty.
  static func trimmed(_ text: String?) -> String? {
    guard let text else { return nil }
    let lines = text.split(whereSeparator: \.isNewline).map { String($0) }
    return lines.isEmpty ? nil : lines.joined(separator: " ")
  }
}

/// A database's committed revision and the UUID that says which revisions compare with it.
public struct NotmuchRevision: Equatable, Hashable, Sendable {
  public let number: UInt64
  public let uuid: String

  public init(number: UInt64, uuid: String) {
    self.number = number
    self.uuid = uuid
  }
}
