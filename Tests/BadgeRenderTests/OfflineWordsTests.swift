import Testing

@testable import BadgeCore
@testable import BadgeRender

/// How long a stale mirror's owner has been out of reach, in the tooltip's words, and when
/// those words next change, so that a watcher redraws them only then and only while something
/// is stale.
@Suite struct OfflineWordsTests {
  static let went = 1_764_620_000

  static func ci(count: Int = 3, offlineFor seconds: Int, pending: Bool = false) -> BadgeFrame {
    BadgeFrame(
      channel: "ci", count: count, label: count > 0 ? String(count) : "",
      mirror: MirrorState(owner: "server", stale: true, since: went, pending: pending), wallSeconds: went + seconds)
  }

  @Test(arguments: [
    (ci(offlineFor: 0), "ci: 3 unread (on server, offline)"),
    (ci(offlineFor: 59), "ci: 3 unread (on server, offline)"),
    (ci(offlineFor: 60), "ci: 3 unread (on server, offline 1 min)"),
    (ci(offlineFor: 12 * 60), "ci: 3 unread (on server, offline 12 min)"),
    (ci(offlineFor: 12 * 60 + 59), "ci: 3 unread (on server, offline 12 min)"),
    (ci(offlineFor: 3599), "ci: 3 unread (on server, offline 59 min)"),
    (ci(offlineFor: 3600), "ci: 3 unread (on server, offline 1 h)"),
    (ci(offlineFor: 3 * 3600 + 59 * 60), "ci: 3 unread (on server, offline 3 h)"),
    (ci(offlineFor: 86399), "ci: 3 unread (on server, offline 23 h)"),
    (ci(offlineFor: 86400), "ci: 3 unread (on server, offline 1 d)"),
    (ci(offlineFor: 2 * 86400 + 23 * 3600), "ci: 3 unread (on server, offline 2 d)"),
    (ci(count: 0, offlineFor: 12 * 60, pending: true), "ci: no unread (on server, offline 12 min, changes waiting)"),
    // A wall clock behind the second the owner went (set back): no length to tell.
    (ci(offlineFor: -300), "ci: 3 unread (on server, offline)"),
  ])
  func wording(_ frame: BadgeFrame, _ expected: String) {
    #expect(AccessibleText.describe(frame) == expected)
  }

  @Test func withoutTheWallClockOrTheSecondItWentTheWordsSayOnlyOffline() {
    var frame = Self.ci(offlineFor: 600)
    frame.wallSeconds = nil
    #expect(AccessibleText.describe(frame) == "ci: 3 unread (on server, offline)")
    #expect(AccessibleText.offline(since: 0, now: Self.went) == "offline")
  }

  @Test(arguments: [
    (0, 60), (59, 60), (60, 120), (12 * 60 + 30, 13 * 60), (3599, 3600), (3600, 7200), (3 * 3600 + 1, 4 * 3600),
    (86399, 86400), (86400, 2 * 86400), (2 * 86400 + 5, 3 * 86400), (-300, 60),
  ])
  func theWordsNextChangeAtTheNextWholeUnit(_ elapsed: Int, _ next: Int) {
    let change = AccessibleText.nextOfflineChange(since: Self.went, after: Self.went + elapsed)
    #expect(change == Self.went + next)
    if elapsed >= 0 {
      #expect(
        AccessibleText.offline(since: Self.went, now: change)
          != AccessibleText.offline(since: Self.went, now: change - 1))
    }
  }

  @Test func aWatcherIsWokenForTheWordsOnlyWhileAMirrorIsStale() {
    var group = AnimatorGroup()
    group.update(snapshot("mail", count: 1), at: 0)
    var ci = snapshot("ci", count: 3)
    ci.mirror = MirrorState(owner: "server")
    group.update(ci, at: 0)
    #expect(group.nextWordsChange(afterWall: Self.went + 90) == nil, "nothing stale: no wake")
    ci.mirror = MirrorState(owner: "server", stale: true, since: Self.went)
    group.update(ci, at: 1)
    #expect(group.nextWordsChange(afterWall: Self.went + 90) == Self.went + 120)
    var disk = snapshot("disk", count: 1)
    disk.mirror = MirrorState(owner: "nas", stale: true, since: Self.went + 100)
    group.update(disk, at: 1)
    #expect(group.nextWordsChange(afterWall: Self.went + 150) == Self.went + 160, "the earliest of them")
    let frames = group.frames(at: 2, wallSeconds: Self.went + 150)
    #expect(frames.map(\.wallSeconds) == [Self.went + 150, Self.went + 150, Self.went + 150])
    #expect(AccessibleText.describe(frames[1]) == "ci: 3 unread (on server, offline 2 min)")
    ci.mirror = MirrorState(owner: "server")
    group.update(ci, at: 3)
    group.remove(channel: "disk")
    #expect(group.nextWordsChange(afterWall: Self.went + 150) == nil, "fresh again: no wake")
  }
}
