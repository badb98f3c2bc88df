import BadgeNotmuch
import BadgeSystem
import Foundation
import Testing

/// What a watch on the Xapian folder sees of a writer: what badged-sources relies on to notice
/// a change without polling the revision.
@Suite struct XapianWatchTests {
  @Test func aTagCommitsByRenamingOntoIamglassAndLetsGoOfFlintlock() throws {
    try NotmuchFolder.with(messages: 2) { nm in
      let db = try NotmuchDatabase(config: nm.config)
      let before = db.revision
      let inotify = try Inotify()
      defer { inotify.close() }
      _ = try inotify.addWatch(XapianPath.folder(database: db.path), mask: [.movedTo, .closedWrite])
      try nm.notmuch("tag", "-unread", "--", "id:nm1@example.org")
      var names: [(InotifyMask, String)] = []
      while case let batch = try inotify.read(), !batch.isEmpty {
        for case .change(let change) in batch {
          names.append((change.mask, String(decoding: change.name, as: UTF8.self)))
        }
      }
      #expect(names.contains { $0.0 == .movedTo && $0.1 == "iamglass" })
      #expect(names.last.map { $0.0 == .closedWrite && $0.1 == "flintlock" } == true)
      // Our own reads are not seen: reopening and counting make no event under this mask.
      try db.reopen()
      #expect(db.revision.number > before.number)
      #expect(try db.count("tag:unread") == 1)
      #expect(try inotify.read() == [])
    }
  }
}
