import BadgeNotmuch
import BadgeSystem

/// One notmuch database's work on a thread of its own (`LoopWorker`), its answers on the loop:
/// opening it (read-only, by notmuch's own lookup or a path), counts with the revision they
/// were read at, message ids, and marking read, which reopens it read-write and may wait for a
/// writer's lock (`notmuch new`) as long as that writer holds it, never on the loop's thread.
public final class NotmuchWorker {
  /// Where the database is: `NotmuchDatabase.init`'s arguments.
  public struct Location: Equatable, Sendable {
    public var path: String?
    public var config: String?
    public var profile: String?

    public init(path: String? = nil, config: String? = nil, profile: String? = nil) {
      self.path = path
      self.config = config
      self.profile = profile
    }
  }

  /// A count and the revision it was read at.
  public struct Count: Equatable, Sendable {
    public var count: Int
    public var revision: NotmuchRevision
  }

  /// What the worker's thread holds: the database, and the UUID of the last listing (`run`'s
  /// `.list`), which changes are read against.
  struct Held {
    var database: NotmuchDatabase?
    var listedUUID: String?
  }

  public let location: Location
  let worker: LoopWorker<Held>

  public init(loop: EventLoop, location: Location) throws(SystemError) {
    self.location = location
    worker = try LoopWorker(loop: loop, state: Held())
  }

  /// Ends the thread once the job under way is done; later answers are dropped.
  public func stop() { worker.stop() }

  /// Counts `query` as of the database's latest commit (reopened first).
  public func count(
    _ query: String, excluding: Bool = true, done: @escaping (Result<Count, NotmuchError>) -> Void
  ) {
    let location = location
    worker.submit(
      { held in
        Result { () throws(NotmuchError) -> Count in
          let db = try Self.reader(&held.database, location)
          return Count(count: try db.count(query, excluding: excluding), revision: db.revision)
        }
      }, done: done)
  }

  /// The message ids matching `query`, as of the database's latest commit.
  public func messageIDs(
    _ query: String, excluding: Bool = true, done: @escaping (Result<[String], NotmuchError>) -> Void
  ) {
    let location = location
    worker.submit(
      { held in
        Result { () throws(NotmuchError) -> [String] in
          try Self.reader(&held.database, location).messageIDs(query, excluding: excluding)
        }
      }, done: done)
  }

  /// Removes `unread` from `ids` (`NotmuchDatabase.markRead`); answers the ids no longer in the
  /// database. Waits for a writer's lock on the worker's thread; the database is read-only
  /// again for the next job.
  public func markRead(_ ids: [String], done: @escaping (Result<[String], NotmuchError>) -> Void) {
    let location = location
    worker.submit(
      { held in
        Result { () throws(NotmuchError) -> [String] in try Self.markRead(ids, &held.database, location) }
      }, done: done)
  }

  /// `markRead`'s work on the worker's thread: the database reopened read-write (waiting for a
  /// writer's lock), `ids` marked, and read-only again.
  static func markRead(
    _ ids: [String], _ database: inout NotmuchDatabase?, _ location: Location
  ) throws(NotmuchError) -> [String] {
    let db = try reader(&database, location)
    try db.reopen(mode: .readWrite)
    defer { try? db.reopen(mode: .readOnly) }
    return try db.markRead(ids)
  }

  /// The database, opened read-only on first use, else reopened to see the latest commit; a
  /// failed reopen drops it, so the next job opens it anew.
  static func reader(_ database: inout NotmuchDatabase?, _ location: Location) throws(NotmuchError)
    -> NotmuchDatabase
  {
    if let db = database {
      do throws(NotmuchError) {
        try db.reopen(mode: .readOnly)
        return db
      } catch {
        database = nil
        throw error
      }
    }
    let db = try NotmuchDatabase(
      path: location.path, config: location.config, profile: location.profile, mode: .readOnly)
    database = db
    return db
  }
}
