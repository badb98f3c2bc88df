import CNotmuch
import Glibc

extension NotmuchDatabase {
  /// What changed for `query` after `revision` (of this database's UUID): the ids of messages
  /// changed since (`lastmod:<revision + 1>..`: added, tagged, renamed) that match `query`, and
  /// those changed since that no longer match it (untagged, or given an excluded tag), excluded
  /// tags applied as by `count`. A message removed since shows in neither: its query's `count`
  /// does.
  public func changes(
    since revision: UInt64, query: String, excluding: Bool = true
  ) throws(NotmuchError) -> (matching: [String], leaving: [String]) {
    let since = "lastmod:\(revision + 1).."
    let matching = try messageIDs("(\(query)) and \(since)", excluding: excluding)
    let matched = Set(matching)
    let leaving = try messageIDs(since, excluding: false).filter { !matched.contains($0) }
    return (matching, leaving)
  }

  /// The database folder an open with `path`, `config` and `profile` (as `init`'s) looks in:
  /// `path` when given (the config's `database.path` then does not count), else the one
  /// notmuch's own lookup gives, read without opening the database: where a database not made
  /// yet is looked for, so that its making can be watched for.
  public static func configuredPath(
    path: String? = nil, config: String? = nil, profile: String? = nil
  ) throws(NotmuchError) -> String {
    if let path { return path }
    var database: OpaquePointer?
    var message: UnsafeMutablePointer<CChar>?
    let status = notmuch_database_load_config(nil, config, profile, &database, &message)
    let text = message.map { String(cString: $0) }
    free(message)
    defer { if let database { notmuch_database_destroy(database) } }
    // No database (or no config file) is what the lookup is for: the config is loaded still.
    let loaded = [NOTMUCH_STATUS_SUCCESS, NOTMUCH_STATUS_NO_DATABASE, NOTMUCH_STATUS_NO_CONFIG].contains(status)
    guard loaded, let database, let found = notmuch_config_get(database, NOTMUCH_CONFIG_DATABASE_PATH) else {
      throw NotmuchError("read the notmuch config", NotmuchStatus(status), message: trimmed(text))
    }
    return String(cString: found)
  }
}
