import BadgeSystem
import Foundation
import Glibc
import Testing

/// inotify on the real kernel, in a temporary folder: what is seen, with its exact names, and a
/// queue overflowed on purpose.
@Suite struct InotifyTests {
  /// The mask a Maildir's `new/` and `cur/` are watched with.
  let folderMask: InotifyMask = [.created, .deleted, .movedFrom, .movedTo, .deletedSelf, .movedSelf, .onlyFolder]

  @Test func aCreateARenameAndADeleteAreSeenWithTheirNames() throws {
    try TemporaryFolder.with { folder in
      let inotify = try Inotify()
      defer { inotify.close() }
      let watch = try inotify.addWatch(folder.path, mask: folderMask)
      let odd: [UInt8] = Array("msg-".utf8) + [0xFF, 0xFE] + Array(":2,".utf8)  // not UTF-8
      try createFile(folder.path, Array("a".utf8))
      try createFile(folder.path, odd)
      #expect(rename(folder.file("a"), folder.file("b")) == 0)
      #expect(unlink(folder.file("b")) == 0)
      let events = try inotify.read()
      #expect(events.count == 5)
      guard events.count == 5, case .change(let from) = events[2], case .change(let to) = events[3] else { return }
      #expect(from.cookie != 0 && from.cookie == to.cookie)
      let seen = events.map { event -> InotifyChange? in
        guard case .change(let change) = event else { return nil }
        return InotifyChange(watch: change.watch, mask: change.mask, cookie: 0, name: change.name)
      }
      let expected: [InotifyChange?] = [
        InotifyChange(watch: watch, mask: .created, cookie: 0, name: Array("a".utf8)),
        InotifyChange(watch: watch, mask: .created, cookie: 0, name: odd),
        InotifyChange(watch: watch, mask: .movedFrom, cookie: 0, name: Array("a".utf8)),
        InotifyChange(watch: watch, mask: .movedTo, cookie: 0, name: Array("b".utf8)),
        InotifyChange(watch: watch, mask: .deleted, cookie: 0, name: Array("b".utf8)),
      ]
      #expect(seen == expected)
      #expect(try inotify.read() == [])
    }
  }

  @Test func aRemovedFolderEndsItsWatchAndAFolderEntryIsMarked() throws {
    try TemporaryFolder.with { folder in
      let inotify = try Inotify()
      defer { inotify.close() }
      #expect(mkdir(folder.file("cur"), 0o700) == 0)
      let parent = try inotify.addWatch(folder.path, mask: folderMask)
      let cur = try inotify.addWatch(folder.file("cur"), mask: folderMask)
      #expect(rmdir(folder.file("cur")) == 0)
      let masks = try inotify.read().compactMap { event -> (Int32, UInt32, [UInt8])? in
        guard case .change(let c) = event else { return nil }
        return (c.watch.rawValue, c.mask.rawValue, c.name)
      }
      #expect(masks.map(\.0) == [cur.rawValue, cur.rawValue, parent.rawValue])
      #expect(
        masks.map(\.1) == [
          InotifyMask.deletedSelf.rawValue, InotifyMask.ignored.rawValue,
          ([.deleted, .isFolder] as InotifyMask).rawValue,
        ])
      #expect(masks.map(\.2) == [[], [], Array("cur".utf8)])
      #expect(throws: Errno(rawValue: EINVAL)) { try inotify.removeWatch(cur) }
    }
  }

  @Test func aMissingPathOrAFileUnderOnlyFolderIsRefused() throws {
    try TemporaryFolder.with { folder in
      let inotify = try Inotify()
      defer { inotify.close() }
      #expect(throws: InotifyWatchError.failed(.noSuchFile)) {
        try inotify.addWatch(folder.file("none"), mask: folderMask)
      }
      let file = try folder.write("file", "x")
      #expect(throws: InotifyWatchError.failed(Errno(rawValue: ENOTDIR))) {
        try inotify.addWatch(file, mask: folderMask)
      }
    }
  }

  @Test func anOverflowedQueueIsReportedOnceAfterTheEventsItHeld() throws {
    let limit = try #require(Int(try readText("/proc/sys/fs/inotify/max_queued_events")))
    try TemporaryFolder.with { folder in
      let inotify = try Inotify()
      defer { inotify.close() }
      _ = try inotify.addWatch(folder.path, mask: .created)
      for i in 0..<(limit + 100) { try createFile(folder.path, Array("f\(i)".utf8)) }
      var changes = 0
      var overflows = 0
      while case let batch = try inotify.read(), !batch.isEmpty {
        for event in batch {
          if event == .overflow { overflows += 1 } else { changes += 1 }
        }
      }
      #expect(changes == limit)
      #expect(overflows == 1)
    }
  }

  /// `ENOSPC` is `.watchLimitReached`. The limit is lowered in a user namespace of its own
  /// (`user.max_inotify_watches` is the namespace's, and its root may set it), so this test
  /// runs itself again there: `unshare --user --map-root-user` cannot be entered by a process
  /// with threads, as the test runner is.
  @Test func theWatchLimitIsItsOwnError() throws {
    let childMark = "BADGED_TEST_INOTIFY_LIMIT"
    if Environment.value(childMark) != nil {
      try "1\n".write(toFile: "/proc/sys/user/max_inotify_watches", atomically: false, encoding: .utf8)
      let inotify = try Inotify()
      defer { inotify.close() }
      _ = try inotify.addWatch("/tmp", mask: .created)
      #expect(throws: InotifyWatchError.watchLimitReached) { try inotify.addWatch("/", mask: .created) }
      return
    }
    let runner = CommandLine.arguments[0]
    let pid = try ChildProcess.spawn(
      [
        "/usr/bin/unshare", "--user", "--map-root-user", runner, "--testing-library", "swift-testing", "--filter",
        "InotifyTests/theWatchLimitIsItsOwnError",
      ],
      environment: ChildProcess.currentEnvironment + ["\(childMark)=1"], output: .descriptor(.standardError))
    var status: CInt = -1
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    #expect(status == 0)
  }

  @Test func theLoopHandsOverEachBatch() throws {
    try TemporaryFolder.with { folder in
      let loop = try EventLoop()
      let inotify = try Inotify()
      defer { inotify.close() }
      _ = try inotify.addWatch(folder.path, mask: .created)
      var names: [[UInt8]] = []
      let source = try inotify.watch(on: loop) { result in
        for case .change(let change) in (try? result.get()) ?? [] { names.append(change.name) }
        loop.exit(code: 3)
      }
      defer { source.cancel() }
      try createFile(folder.path, Array("new-mail".utf8))
      #expect(try loop.runGuarded() == 3)
      #expect(names == [Array("new-mail".utf8)])
    }
  }
}

/// Creates an empty file named by `name`'s bytes in `folder`.
func createFile(_ folder: String, _ name: [UInt8]) throws {
  let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
  let fd = path.withUnsafeBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600) }
  }
  guard fd >= 0 else { throw Errno.current }
  close(fd)
}

/// The first line of a small text file (a /proc setting).
func readText(_ path: String) throws -> String {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw Errno.current }
  defer { close(fd) }
  var buffer = [UInt8](repeating: 0, count: 256)
  let n = read(fd, &buffer, buffer.count)
  guard n >= 0 else { throw Errno.current }
  return String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
}
