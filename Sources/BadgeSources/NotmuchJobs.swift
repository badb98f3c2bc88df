/// What a notmuch source asks of its database's worker thread, one job at a time per
/// database; each is answered by a `NotmuchResult`.
public enum NotmuchJob: Equatable, Sendable {
  /// Open the database anew (read-only) and list the message ids each query matches, in
  /// order; answered `.listed`.
  case list(queries: [String])
  /// Reopen and read the revision and UUID; with the same UUID, for each query, the ids that
  /// match `(<query>) and lastmod:<revision + 1>..` and those that match `not (<query>) and
  /// lastmod:<revision + 1>..`, and the query's count; answered `.changed`.
  case changes(since: UInt64, queries: [String])
  /// Remove the `unread` tag from these messages, in one atomic section (read-write);
  /// answered `.marked`, or `.locked` while another writer holds the database.
  case markRead(ids: [[UInt8]])
}

/// A worker's answer.
public enum NotmuchResult: Equatable, Sendable {
  /// Each query's ids, at `revision` of the database `uuid`, whose Xapian folder is `xapian`.
  case listed(revision: UInt64, uuid: String, xapian: [UInt8], ids: [[[UInt8]]])
  /// What changed since the revision asked for, now at `revision` of `uuid`; a UUID other
  /// than the one listed (rebuilt, compacted, upgraded) is answered with no changes.
  case changed(revision: UInt64, uuid: String, queries: [NotmuchChange])
  /// There is no database (yet), or `notmuch new` is still making it: `path` is the Xapian
  /// folder it will be in.
  case missing(path: [UInt8])
  /// Another writer holds the database (`notmuch new`): the job is to be asked again later.
  case locked
  /// The messages were marked read.
  case marked
  /// Anything else, as notmuch words it.
  case failed(String)
}

/// One query's changes since a revision.
public struct NotmuchChange: Equatable, Sendable {
  /// Messages changed since, that match the query.
  public var matching: [[UInt8]]
  /// Messages changed since, that no longer match it.
  public var leaving: [[UInt8]]
  /// The query's count now, which the set must equal once the changes are in (a deleted
  /// message shows only there).
  public var count: Int

  public init(matching: [[UInt8]], leaving: [[UInt8]], count: Int) {
    self.matching = matching
    self.leaving = leaving
    self.count = count
  }
}

extension NotmuchSettings {
  /// `database` with `~/` made absolute with `home`, as the other kinds' paths are; `nil` for
  /// notmuch's own lookup.
  public func databasePath(home: [UInt8]) -> String? {
    database.map { String(decoding: BytePath.expand($0, home: home), as: UTF8.self) }
  }
}
