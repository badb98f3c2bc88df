import BadgeNotmuch
import BadgeSources
import BadgeSourcesProgram
import BadgeSystem
import Foundation
import Testing

/// A notmuch source's jobs done by its worker against the real notmuch, answered as the source
/// expects: a listing, the changes since it, a mark-read, a database not made yet.
@Suite struct NotmuchWorkerJobsTests {
  static let query = "tag:unread and tag:inbox"

  /// Runs `jobs` in turn on a worker for `nm`'s config and returns their answers.
  static func answers(_ nm: NotmuchFolder, _ jobs: [NotmuchJob], between: @escaping (Int) throws -> Void = { _ in })
    throws
    -> [NotmuchResult]
  {
    let loop = try EventLoop()
    let worker = try NotmuchWorker(loop: loop, location: .init(config: nm.config))
    defer { worker.stop() }
    var answers: [NotmuchResult] = []
    var failure: (any Error)?
    func next() {
      guard answers.count < jobs.count else { return loop.exit(code: 0) }
      worker.run(jobs[answers.count], excluding: true) { result in
        answers.append(result)
        do { try between(answers.count) } catch { failure = error }
        next()
      }
    }
    next()
    let guardTimer = try loop.addTimer(at: loop.now + 10_000_000) { loop.exit(code: 1) }
    #expect(try loop.run() == 0)
    guardTimer.cancel()
    if let failure { throw failure }
    return answers
  }

  static func ids(_ numbers: Int...) -> [[UInt8]] { numbers.map { Array("nm\($0)@example.org".utf8) } }

  @Test func aListingThenTheChangesSinceIt() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let revision = try NotmuchDatabase(config: nm.config).revision
      let answers = try Self.answers(
        nm, [.list(queries: [Self.query]), .changes(since: revision.number, queries: [Self.query])],
        between: { done in
          guard done == 1 else { return }
          try nm.notmuch("tag", "-unread", "--", "id:nm1@example.org")
          try nm.deliver(4)
          try nm.notmuch("new")
        })
      guard case .listed(let listedAt, let uuid, let xapian, let ids) = answers[0] else {
        Issue.record("not listed: \(answers[0])")
        return
      }
      #expect(listedAt == revision.number && uuid == revision.uuid)
      #expect(String(decoding: xapian, as: UTF8.self) == nm.mail + "/.notmuch/xapian")
      #expect(ids.count == 1 && ids[0].sorted { $0.lexicographicallyPrecedes($1) } == Self.ids(1, 2, 3))
      guard case .changed(let now, uuid, let changes) = answers[1] else {
        Issue.record("not changed: \(answers[1])")
        return
      }
      #expect(now > revision.number)
      #expect(changes == [NotmuchChange(matching: Self.ids(4), leaving: Self.ids(1), count: 3)])
    }
  }

  @Test func changesUnderAnotherUUIDAreNone() throws {
    try NotmuchFolder.with(messages: 2) { nm in
      let answers = try Self.answers(
        nm, [.list(queries: [Self.query]), .changes(since: 1, queries: [Self.query])],
        between: { done in if done == 1 { try nm.notmuch("compact", "--quiet") } })
      let after = try NotmuchDatabase(config: nm.config).revision
      #expect(answers[1] == .changed(revision: after.number, uuid: after.uuid, queries: []))
    }
  }

  @Test func aMarkReadRemovesUnreadFromExactlyThoseMessages() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let answers = try Self.answers(nm, [.markRead(ids: Self.ids(1, 3))])
      #expect(answers == [.marked])
      #expect(try nm.notmuch("search", "--output=messages", "tag:unread") == "id:nm2@example.org")
    }
  }

  @Test func aDatabaseNotMadeYetIsMissingWhereNotmuchNewMakesIt() throws {
    try NotmuchFolder.with(messages: 1) { nm in
      try FileManager.default.removeItem(atPath: nm.mail + "/.notmuch")
      let awaited = Array((nm.mail + "/.notmuch/xapian").utf8)
      #expect(try Self.answers(nm, [.list(queries: [Self.query])]) == [.missing(path: awaited)])
      #expect(try Self.answers(nm, [.changes(since: 3, queries: [Self.query])]) == [.missing(path: awaited)])
      // The Xapian folder made, but no commit in it yet: what notmuch new is making.
      try FileManager.default.createDirectory(atPath: nm.mail + "/.notmuch/xapian", withIntermediateDirectories: true)
      #expect(try Self.answers(nm, [.list(queries: [Self.query])]) == [.missing(path: awaited)])
      try nm.notmuch("new")
      guard case .listed = try Self.answers(nm, [.list(queries: [Self.query])])[0] else {
        Issue.record("not listed once notmuch new made it")
        return
      }
    }
  }

  @Test func aQueryNotmuchCannotParseFails() throws {
    try NotmuchFolder.with(messages: 1) { nm in
      let answers = try Self.answers(nm, [.list(queries: ["tag:unread and ("])])
      guard case .failed(let why) = answers[0] else {
        Issue.record("not failed: \(answers[0])")
        return
      }
      #expect(why.contains("tag:unread and ("))
    }
  }
}
