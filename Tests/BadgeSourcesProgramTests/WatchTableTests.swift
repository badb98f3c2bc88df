import BadgeSources
import BadgeSystem
import Foundation
import Glibc
import Testing

@testable import BadgeSourcesProgram

/// One source's inotify instance on a real loop and a real folder: what each change of the
/// folder is told as, under the watch's tag, and the watch dropped once its folder goes.
@Suite struct WatchTableTests {
  /// A table on a loop of its own, and the events it handed on.
  final class Rig {
    let loop: EventLoop
    var table: WatchTable!
    var events: [FSEvent] = []

    init() throws {
      loop = try EventLoop()
      table = try WatchTable(
        source: "inbox", loop: loop, onEvents: { [unowned self] in events += $0 },
        onFailure: { Issue.record("read failed: \($0)") })
    }

    /// Turns the loop until `count` events in all were handed on (each turn waits for the
    /// instance to be readable, at most 5 s); the events.
    func await(_ count: Int) throws -> [FSEvent] {
      var turns = 0
      while events.count < count, turns < 100 {
        try loop.runOnce(timeout: 5_000_000)
        turns += 1
      }
      return events
    }
  }

  static func folder() throws -> String {
    var template = Array("/tmp/badged-watch.XXXXXX".utf8CString)
    return String(cString: try #require(mkdtemp(&template)))
  }

  static let tag: WatchTag = Array("new".utf8)

  @Test func eachPurposeAsksForItsEvents() {
    #expect(
      WatchTable.mask(for: .items).rawValue
        == UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR))
    #expect(WatchTable.mask(for: .folders) == WatchTable.mask(for: .items))
    #expect(
      WatchTable.mask(for: .database).rawValue
        == UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR))
  }

  @Test func namesComeAndGoUnderTheTagAndAGoneFolderIsToldOnce() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let rig = try Rig()
    try rig.table.watch(Self.tag, path: Array(folder.utf8), purpose: .items)
    #expect(rig.table.count == 1)
    close(open(folder + "/a", O_CREAT | O_WRONLY, 0o600))
    rename(folder + "/a", folder + "/b:2,S")
    unlink(folder + "/b:2,S")
    mkdir(folder + "/sub", 0o700)
    rmdir(folder + "/sub")
    rmdir(folder)
    let name = { (text: String) in Array(text.utf8) }
    #expect(
      try rig.await(7) == [
        FSEvent(.appeared, tag: Self.tag, name: name("a")), FSEvent(.departed, tag: Self.tag, name: name("a")),
        FSEvent(.appeared, tag: Self.tag, name: name("b:2,S")), FSEvent(.departed, tag: Self.tag, name: name("b:2,S")),
        FSEvent(.appeared, tag: Self.tag, name: name("sub"), isDirectory: true),
        FSEvent(.departed, tag: Self.tag, name: name("sub"), isDirectory: true), FSEvent(.watchedGone, tag: Self.tag),
      ])
    #expect(rig.table.count == 0)
    rig.table.close()
  }

  @Test func aDatabaseFolderTellsAWriterLettingGo() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let rig = try Rig()
    try rig.table.watch(Self.tag, path: Array(folder.utf8), purpose: .database)
    let fd = open(folder + "/flintlock", O_CREAT | O_WRONLY, 0o600)
    close(fd)
    #expect(try rig.await(1) == [FSEvent(.written, tag: Self.tag, name: Array("flintlock".utf8))])
    #expect(throws: InotifyWatchError.self) {
      try rig.table.watch(Self.tag, path: Array((folder + "/flintlock").utf8), purpose: .items)
    }
    #expect(rig.table.count == 0)
    rig.table.close()
  }
}
