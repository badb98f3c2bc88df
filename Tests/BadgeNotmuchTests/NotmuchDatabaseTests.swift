import BadgeNotmuch
import Foundation
import Testing

/// libnotmuch against the real `notmuch new`, `notmuch tag` and `notmuch compact`, each test in
/// a set-up of its own (`NotmuchFolder`). Serialized: one test sets `NOTMUCH_CONFIG` in this
/// process to try notmuch's own lookup.
@Suite(.serialized) struct NotmuchDatabaseTests {
  @Test func countsAndIdsAreWhatNotmuchCountAndSearchSay() throws {
    try NotmuchFolder.with(messages: 5) { nm in
      try nm.notmuch("tag", "+spam", "--", "id:nm2@example.org")
      try nm.notmuch("tag", "-unread", "--", "id:nm3@example.org")
      let db = try NotmuchDatabase(config: nm.config)
      #expect(db.path == nm.mail)
      #expect(db.excludedTags == ["deleted", "spam"])
      #expect(db.synchronizesMaildirFlags)
      let query = "tag:unread and tag:inbox"
      #expect(try db.count(query) == 3)
      #expect(try db.count(query) == Int(try nm.notmuch("count", query)))
      #expect(try db.count(query, excluding: false) == 4)
      #expect(try db.count(query, excluding: false) == Int(try nm.notmuch("count", "--exclude=false", query)))
      #expect(try db.count("tag:spam") == 1)  // a query naming an excluded tag still finds it
      let ids = try db.messageIDs(query).sorted()
      #expect(ids == ["nm1@example.org", "nm4@example.org", "nm5@example.org"])
      let searched = try nm.notmuch("search", "--output=messages", query).split(separator: "\n").map { $0.dropFirst(3) }
      #expect(ids == searched.map(String.init).sorted())
      #expect(try db.messageIDs(query, excluding: false).count == 4)
    }
  }

  @Test func theRevisionMovesOnATagOnceReopenedAndTheUUIDStays() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let db = try NotmuchDatabase(config: nm.config)
      let before = db.revision
      #expect(!before.uuid.isEmpty)
      try nm.notmuch("tag", "-unread", "--", "id:nm1@example.org")
      #expect(db.revision == before)  // a reader sees the revision it opened at
      #expect(try db.count("tag:unread") == 3)
      try db.reopen()
      let after = db.revision
      #expect(after.uuid == before.uuid)
      #expect(after.number > before.number)
      #expect(try db.count("tag:unread") == 2)
      try db.reopen()
      #expect(db.revision == after)  // nothing written: the same revision
    }
  }

  @Test func compactingGivesANewUUID() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let before = try NotmuchDatabase(config: nm.config).revision
      try nm.notmuch("compact", "--quiet")
      let after = try NotmuchDatabase(config: nm.config).revision
      #expect(after.uuid != before.uuid)
      #expect(try NotmuchDatabase(config: nm.config).count("tag:unread") == 3)
    }
  }

  @Test func markingReadRemovesUnreadAtomicallyAndRenamesTheFiles() throws {
    try NotmuchFolder.with(messages: 3) { nm in
      let db = try NotmuchDatabase(config: nm.config, mode: .readWrite)
      let missing = try db.markRead(["nm1@example.org", "gone@example.org", "nm3@example.org"])
      #expect(missing == ["gone@example.org"])
      db.close()
      #expect(try nm.notmuch("count", "tag:unread") == "1")
      #expect(try nm.notmuch("search", "--output=messages", "tag:unread") == "id:nm2@example.org")
      let cur = try FileManager.default.contentsOfDirectory(atPath: nm.mail + "/cur").sorted()
      #expect(cur == ["1.test:2,S", "3.test:2,S"])
      #expect(try FileManager.default.contentsOfDirectory(atPath: nm.mail + "/new") == ["2.test"])
    }
  }

  @Test func aReadOnlyDatabaseRefusesToMarkRead() throws {
    try NotmuchFolder.with(messages: 1) { nm in
      let db = try NotmuchDatabase(config: nm.config)
      #expect(throws: NotmuchError("mark message 'nm1@example.org' read", .readOnlyDatabase)) {
        try db.markRead(["nm1@example.org"])
      }
      #expect(try nm.notmuch("count", "tag:unread") == "1")
    }
  }

  /// libnotmuch opens read-write with Xapian's `DB_RETRY_LOCK`: a second writer does not fail
  /// while one holds the lock, it waits in `fcntl(F_OFD_SETLKW)` until the lock is let go. Shown
  /// with the real `notmuch tag` as the second writer; readers are never held up.
  @Test func aSecondWriterWaitsForTheLockAndReadersDoNot() throws {
    try NotmuchFolder.with(messages: 2) { nm in
      let writer = try NotmuchDatabase(config: nm.config, mode: .readWrite)
      defer { writer.close() }
      let tag = try nm.start("tag", "-unread", "--", "id:nm1@example.org")
      #expect(try waitForLockWait(tag.processIdentifier))
      #expect(tag.isRunning)
      #expect(try NotmuchDatabase(config: nm.config).count("tag:unread") == 2)
      writer.close()
      tag.waitUntilExit()
      #expect(tag.terminationStatus == 0)
      #expect(try NotmuchDatabase(config: nm.config).count("tag:unread") == 1)
    }
  }

  /// Whether process `pid` comes to wait for a file lock (`fcntl_setlk` in its
  /// `/proc/<pid>/wchan`) within ten seconds.
  private func waitForLockWait(_ pid: Int32) throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
      if wchan.hasPrefix("fcntl_setlk") { return true }
      usleep(1000)
    }
    return false
  }

  @Test func aMissingDatabaseIsAnErrorWithItsStatus() throws {
    try NotmuchFolder.with(messages: 0) { nm in
      try FileManager.default.removeItem(atPath: nm.mail + "/.notmuch")
      let error = #expect(throws: NotmuchError.self) { try NotmuchDatabase(config: nm.config) }
      #expect(error?.status == .fileError)
      #expect(error?.message == "Error: Cannot open database at \(nm.mail)/.notmuch: No such file or directory.")
    }
  }

  @Test func notmuchsOwnLookupFollowsNOTMUCH_CONFIG() throws {
    try NotmuchFolder.with(messages: 2) { nm in
      let saved = getenv("NOTMUCH_CONFIG").map { String(cString: $0) }
      setenv("NOTMUCH_CONFIG", nm.config, 1)
      defer {
        if let saved { setenv("NOTMUCH_CONFIG", saved, 1) } else { unsetenv("NOTMUCH_CONFIG") }
      }
      let db = try NotmuchDatabase()
      #expect(db.path == nm.mail)
      #expect(try db.count("tag:unread and tag:inbox") == 2)
    }
  }

  @Test func theXapianFolderIsInsideTheMailRootOrUnderTheDataHome() throws {
    try NotmuchFolder.with(messages: 1) { nm in
      let db = try NotmuchDatabase(config: nm.config)
      #expect(XapianPath.folder(database: db.path) == nm.mail + "/.notmuch/xapian")
    }
    let environment = ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]
    #expect(
      XapianPath.folder(database: "/m", environment: { environment[$0] }, isFolder: { _ in false })
        == "/data/notmuch/default/xapian")
    #expect(
      XapianPath.folder(
        database: "/m", profile: "work", environment: { ["HOME": "/home/u"][$0] }, isFolder: { _ in false })
        == "/home/u/.local/share/notmuch/work/xapian")
  }
}
