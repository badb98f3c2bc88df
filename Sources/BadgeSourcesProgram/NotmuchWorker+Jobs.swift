import BadgeNotmuch
import BadgeSources

/// A notmuch source's jobs (`NotmuchJob`) done by its database's worker, and answered as the
/// source expects (`NotmuchResult`).
extension NotmuchWorker {
  /// Does `job` on the worker's thread and gives its answer to `done` on the loop's; `excluding`
  /// leaves out the config's `search.exclude_tags` (the source's `exclude`).
  public func run(_ job: NotmuchJob, excluding: Bool, done: @escaping (NotmuchResult) -> Void) {
    let location = location
    worker.submit({ held in Self.answer(job, excluding: excluding, &held, location) }, done: done)
  }

  /// `job`'s answer, on the worker's thread.
  static func answer(_ job: NotmuchJob, excluding: Bool, _ held: inout Held, _ location: Location)
    -> NotmuchResult
  {
    do throws(NotmuchError) {
      switch job {
      case .list(let queries):
        return try reading(&held.database, location) { db throws(NotmuchError) in
          let revision = db.revision
          held.listedUUID = revision.uuid
          let xapian = XapianPath.folder(database: db.path, profile: location.profile)
          var ids: [[[UInt8]]] = []
          for query in queries { ids.append(try db.messageIDs(query, excluding: excluding).map { Array($0.utf8) }) }
          return .listed(revision: revision.number, uuid: revision.uuid, xapian: Array(xapian.utf8), ids: ids)
        }
      case .changes(let since, let queries):
        let listed = held.listedUUID
        return try reading(&held.database, location) { db throws(NotmuchError) in
          let revision = db.revision
          guard revision.uuid == listed else {
            return .changed(revision: revision.number, uuid: revision.uuid, queries: [])
          }
          var changes: [NotmuchChange] = []
          for query in queries {
            let changed = try db.changes(since: since, query: query, excluding: excluding)
            changes.append(
              NotmuchChange(
                matching: changed.matching.map { Array($0.utf8) }, leaving: changed.leaving.map { Array($0.utf8) },
                count: try db.count(query, excluding: excluding)))
          }
          return .changed(revision: revision.number, uuid: revision.uuid, queries: changes)
        }
      case .markRead(let ids):
        do throws(NotmuchError) {
          _ = try markRead(ids.map { String(decoding: $0, as: UTF8.self) }, &held.database, location)
          return .marked
        } catch  where error.status == .xapianException {
          // Another writer's lock (or a revision it discarded): asked again once it lets go.
          return .locked
        }
      }
    } catch {
      return failure(error, location)
    }
  }

  /// `body` on the database reopened to its latest commit; a Xapian exception (a writer
  /// discarded the revision being read) opens it anew and tries once more.
  private static func reading(
    _ database: inout NotmuchDatabase?, _ location: Location,
    _ body: (NotmuchDatabase) throws(NotmuchError) -> NotmuchResult
  ) throws(NotmuchError) -> NotmuchResult {
    do throws(NotmuchError) {
      return try body(try reader(&database, location))
    } catch  where error.status == .xapianException {
      database = nil
      return try body(try reader(&database, location))
    }
  }

  /// What a failure answers: a database that is not where the lookup says, or not made yet
  /// (`notmuch new` making its Xapian folder), `.missing` with the Xapian folder its making
  /// shows in; anything else as notmuch words it.
  private static func failure(_ error: NotmuchError, _ location: Location) -> NotmuchResult {
    guard [.fileError, .noDatabase, .pathError].contains(error.status),
      let path = try? NotmuchDatabase.configuredPath(
        path: location.path, config: location.config, profile: location.profile)
    else { return .failed(error.description) }
    let xapian = XapianPath.awaited(database: path, profile: location.profile)
    return XapianPath.holdsDatabase(xapian) ? .failed(error.description) : .missing(path: Array(xapian.utf8))
  }
}
