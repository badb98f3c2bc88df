import BadgeNotmuch
import Foundation
import Testing

/// What a notmuch source reads besides counts, against the real `notmuch new` and `notmuch
/// tag`: the messages changed since a revision (`lastmod:`), and where a database not made yet
/// will be, so that its making can be watched for.
@Suite struct NotmuchChangesTests {
  @Test func theChangesSinceARevisionAreWhatWasTaggedAndDelivered() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let db = try NotmuchDatabase(config: nm.config)
      let query = "tag:unread and tag:inbox"
      let before = db.revision.number
      #expect(try db.changes(since: before, query: query) == ([], []))
      try nm.notmuch("tag", "-unread", "--", "id:nm1@example.org")
      try nm.notmuch("tag", "+spam", "--", "id:nm2@example.org")
      try nm.deliver(4)
      try nm.notmuch("new")
      try db.reopen()
      let changes = try db.changes(since: before, query: query)
      #expect(changes.matching == ["nm4@example.org"])
      // Read, and given an excluded tag: both leave the count.
      #expect(changes.leaving.sorted() == ["nm1@example.org", "nm2@example.org"])
      #expect(try db.count(query) == 1 + 1)
      // Without the exclude tags, the spam message still matches.
      let unexcluded = try db.changes(since: before, query: query, excluding: false)
      #expect(unexcluded.matching.sorted() == ["nm2@example.org", "nm4@example.org"])
      #expect(unexcluded.leaving == ["nm1@example.org"])
      #expect(try db.changes(since: db.revision.number, query: query) == ([], []))
    }
  }

  @Test func aDatabaseNotMadeYetIsLookedForWhereNotmuchNewMakesIt() throws {
    try NotmuchFolder.with(messages: 1) { nm in
      try FileManager.default.removeItem(atPath: nm.mail + "/.notmuch")
      #expect(throws: NotmuchError.self) { try NotmuchDatabase(config: nm.config) }
      #expect(try NotmuchDatabase.configuredPath(config: nm.config) == nm.mail)
      #expect(try NotmuchDatabase.configuredPath(path: "/elsewhere", config: nm.config) == "/elsewhere")
      // No data home of the user's is looked at.
      let environment = ["HOME": nm.root, "XDG_DATA_HOME": nm.root + "/data"]
      let awaited = XapianPath.awaited(database: nm.mail, environment: { environment[$0] })
      #expect(awaited == nm.mail + "/.notmuch/xapian")
      #expect(!XapianPath.isFolder(awaited))
      try nm.notmuch("new")
      #expect(XapianPath.isFolder(awaited))
      #expect(XapianPath.folder(database: nm.mail, environment: { environment[$0] }) == awaited)
    }
  }

  @Test func aDatabaseUnderTheDataHomeIsAwaitedThere() {
    let environment = ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]
    let made = { (path: String) in path == "/data/notmuch/default/xapian" }
    #expect(
      XapianPath.awaited(database: "/m", environment: { environment[$0] }, isFolder: made)
        == "/data/notmuch/default/xapian")
    #expect(
      XapianPath.awaited(database: "/m", environment: { environment[$0] }, isFolder: { _ in false })
        == "/m/.notmuch/xapian")
  }
}
