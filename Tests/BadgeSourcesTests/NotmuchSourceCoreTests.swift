import BadgeCore
import BadgeSources
import Testing

/// A notmuch source through `SourcesCore`: listings, changes read on a commit, a count that
/// disagrees, a new UUID, mark-read waiting for a writer's lock, a missing database.
@Suite struct NotmuchSourceCoreTests {
  static let config = """
    [source.lists]
    kind = notmuch
    query = tag:unread and tag:inbox
    query.rust = tag:unread and tag:rust
    on_clear = mark-read
    """
  static let queries = ["tag:unread and tag:inbox", "tag:unread and tag:rust"]
  static let xapian = Array("/home/u/mail/.notmuch/xapian".utf8)
  static let tag = Array("xapian".utf8)

  static func ids(_ names: String...) -> [[UInt8]] { names.map { Array($0.utf8) } }

  static func jobs(_ actions: [SourceAction]) -> [NotmuchJob] {
    actions.compactMap {
      if case .notmuch("lists", let job) = $0 { return job }
      return nil
    }
  }

  static func listed(_ revision: UInt64, uuid: String = "u1", _ ids: [[[UInt8]]]) -> SourceInput {
    .notmuch(source: "lists", .listed(revision: revision, uuid: uuid, xapian: xapian, ids: ids))
  }

  static func commit(_ name: String = "iamglass", _ kind: FSEvent.Kind = .appeared) -> SourceInput {
    .fsEvents(source: "lists", [FSEvent(kind, tag: tag, name: Array(name.utf8))])
  }

  /// Started, connected, listed with `a b` and `c`, the writes answered, a second later.
  static func counting() throws -> SourcesHarness {
    let harness = try SourcesHarness(config)
    #expect(jobs(harness.start()) == [.list(queries: queries)])
    #expect(jobs(harness.connect()).isEmpty)
    // The connection's recount waits for the start's, then runs once.
    #expect(jobs(harness.run(listed(10, [ids("a", "b"), ids("c")]))) == [.list(queries: queries)])
    let written = harness.run(listed(10, [ids("a", "b"), ids("c")]))
    #expect(written.writes == ["SET lists 2 new=2 id=src-7f3a91c2:1", "SET lists:rust 1 new=1 id=src-7f3a91c2:2"])
    #expect(harness.watches[["lists", "xapian"]] == "/home/u/mail/.notmuch/xapian")
    harness.answerWrites()
    harness.advance(ms: 1000)
    return harness
  }

  @Test func aCommitReadsTheChangesSinceTheRevision() throws {
    let harness = try Self.counting()
    #expect(Self.jobs(harness.run(Self.commit())) == [.changes(since: 10, queries: Self.queries)])
    // A second commit during the read is read once after it.
    #expect(Self.jobs(harness.run(Self.commit())).isEmpty)
    let changes = [
      NotmuchChange(matching: Self.ids("d"), leaving: Self.ids("a"), count: 2),
      NotmuchChange(matching: [], leaving: [], count: 1),
    ]
    let read = harness.run(.notmuch(source: "lists", .changed(revision: 11, uuid: "u1", queries: changes)))
    #expect(read.writes == ["SET lists 2 new=1 id=src-7f3a91c2:3"])
    #expect(Self.jobs(read) == [.changes(since: 11, queries: Self.queries)])
    harness.answerWrites()
    #expect(harness.daemon["lists"]! == (2, 3))
    // Our own reads' events, and other files', are nothing.
    #expect(Self.jobs(harness.run(Self.commit("postlist.glass"))).isEmpty)
  }

  @Test func aCountThatDisagreesOrANewUUIDRecounts() throws {
    let harness = try Self.counting()
    harness.run(Self.commit())
    let deleted = [
      NotmuchChange(matching: [], leaving: [], count: 1), NotmuchChange(matching: [], leaving: [], count: 1),
    ]
    let disagreed = harness.run(.notmuch(source: "lists", .changed(revision: 12, uuid: "u1", queries: deleted)))
    #expect(Self.jobs(disagreed) == [.list(queries: Self.queries)])
    harness.run(Self.listed(12, [Self.ids("b"), Self.ids("c")]))
    harness.run(Self.commit())
    let rebuilt = harness.run(.notmuch(source: "lists", .changed(revision: 3, uuid: "u2", queries: [])))
    #expect(Self.jobs(rebuilt) == [.list(queries: Self.queries)])
  }

  @Test func aFailedReadIsAnErrorUntilTheNextCommitListsAnew() throws {
    let harness = try Self.counting()
    harness.run(Self.commit())
    harness.run(.notmuch(source: "lists", .failed("Failed to search: A Xapian exception occurred")))
    #expect(harness.logs.last == "Source lists: error: Failed to search: A Xapian exception occurred.")
    #expect(Self.jobs(harness.run(Self.commit())) == [.list(queries: Self.queries)])
    harness.run(Self.listed(12, [Self.ids("a", "b"), Self.ids("c")]))
    #expect(harness.logs.last == "Source lists: counting again after 1 failed attempt.")
  }

  @Test func markReadWaitsForTheLock() throws {
    let harness = try Self.counting()
    let clicked = harness.run(.daemon(.cleared(ChannelName("lists")!, upto: 3)))
    guard case .markRead(let ids) = Self.jobs(clicked).first else {
      Issue.record("no mark-read job")
      return
    }
    #expect(ids.sorted { $0.lexicographicallyPrecedes($1) } == Self.ids("a", "b"))
    // `notmuch new` holds the database: tried again after 5 s, then 10 s, or when it lets go.
    #expect(harness.run(.notmuch(source: "lists", .locked)).contains(.armTimer(at: harness.time.boottime + 5_000_000)))
    #expect(Self.jobs(harness.advance(ms: 4999)).isEmpty)
    #expect(Self.jobs(harness.advance(ms: 1)).count == 1)
    harness.run(.notmuch(source: "lists", .locked))
    let released = harness.run(Self.commit("flintlock", .written))
    #expect(Self.jobs(released).count == 2)
    #expect(Self.jobs(released).first == .changes(since: 10, queries: Self.queries))
    harness.run(.notmuch(source: "lists", .marked))
    #expect(harness.logs.allSatisfy { !$0.contains("error") })
  }

  @Test func aMissingDatabaseIsAnErrorUntilItIsMade() throws {
    let harness = try SourcesHarness(Self.config)
    harness.start()
    let missing = SourceInput.notmuch(source: "lists", .missing(path: Self.xapian))
    // Watched, then looked for again: a database made before the watches is not missed.
    #expect(Self.jobs(harness.run(missing)) == [.list(queries: Self.queries)])
    #expect(harness.logs == ["Source lists: error: no notmuch database at /home/u/mail/.notmuch/xapian."])
    #expect(harness.watches[["lists", ".."]] == "/home/u/mail/.notmuch")
    #expect(harness.watches[["lists", "../.."]] == "/home/u/mail")
    // A folder notmuch new is still making commits into it when it is a database.
    #expect(harness.watches[["lists", "xapian"]] == "/home/u/mail/.notmuch/xapian")
    // Still missing: no more looking until something is made, and no second line.
    #expect(Self.jobs(harness.run(missing)).isEmpty)
    #expect(harness.logs.count == 1)
    // `notmuch new` makes `.notmuch`: watched anew, then looked for again.
    let parent = harness.run(
      .fsEvents(source: "lists", [FSEvent(.appeared, tag: Array("../..".utf8), name: Array(".notmuch".utf8))]))
    #expect(Self.jobs(parent) == [.list(queries: Self.queries)])
    #expect(Self.jobs(harness.run(missing)) == [.list(queries: Self.queries)])
    #expect(Self.jobs(harness.run(missing)).isEmpty)
    let made = harness.run(.fsEvents(source: "lists", [FSEvent(.appeared, tag: Array("..".utf8), name: Self.tag)]))
    #expect(Self.jobs(made) == [.list(queries: Self.queries)])
    // Made but not committed yet: watched anew, looked for once more, then its first commit.
    #expect(Self.jobs(harness.run(missing)) == [.list(queries: Self.queries)])
    #expect(Self.jobs(harness.run(missing)).isEmpty)
    #expect(Self.jobs(harness.run(Self.commit())) == [.list(queries: Self.queries)])
    harness.run(Self.listed(1, [[], []]))
    #expect(harness.watches == [["lists", "xapian"]: "/home/u/mail/.notmuch/xapian"])
    #expect(harness.logs.last == "Source lists: counting again after 6 failed attempts.")
  }
}
