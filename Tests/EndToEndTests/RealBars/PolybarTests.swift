import Foundation
import Testing

/// polybar 3.6 in Xvfb, running contrib/bars/polybar (docs/BARS.md's module) with the built
/// badgectl; a real click goes through `click-left = kill -USR1 %pid%`.
@Suite struct PolybarTests {
  /// A bar around docs/BARS.md's module.
  static let bar = """
    [bar/badged]
    width = 100%
    height = 30
    background = \(BarTheme.current.background)
    foreground = \(BarTheme.current.foreground)
    font-0 = DejaVu Sans:size=14;3
    modules-left = mail


    """

  @Test func theModuleShowsTheCountAndAClickClearsIt() throws {
    let rig = try BarRig(pulseMs: 1000)
    let x = try XServer(rig.background)
    let config = try rig.file("polybar.ini", PolybarTests.bar + Contrib.config("polybar/config.ini"))
    try rig.background.start(
      "polybar", ["polybar", "--config=\(config)", "badged"], environment: rig.environment(x.environment))
    let shot = { try x.screenshot() }

    let empty = try rig.waitForBar("polybar", shot)
    #expect(empty.count(BarColours.unread, tolerance: 12) == 0)

    // The count is drawn in the badge's colour (%{F#e53935}).
    try badgectl(["set", "mail", "42"], socket: rig.socket)
    let shown = try pollScreenshot(shot) { $0.count(BarColours.unread, tolerance: 12) > 30 }
    #expect(shown.matched, "no badge: \(rig.background.log("polybar"))")
    keepScreenshot(rig.background, "polybar")

    // A new count changes the pixels.
    try badgectl(["set", "mail", "7"], socket: rig.socket)
    let changed = try pollScreenshot(shot) {
      $0.difference(from: shown.shot) > 30 && $0.count(BarColours.unread, tolerance: 12) > 15
    }
    #expect(changed.matched)

    // A left click on the badge: polybar signals the watcher, which clears the channel.
    let target = try #require(changed.shot.centre(of: BarColours.unread, tolerance: 12))
    try x.click(x: target.x, y: target.y)
    #expect(waitUntil(timeout: 5) { (try? currentCount("mail", socket: rig.socket)) == 0 })
    let cleared = try pollScreenshot(shot) { $0.count(BarColours.unread, tolerance: 12) == 0 }
    #expect(cleared.matched, "the badge stays after the clear")

    #expect(rig.stopAndCheckWatchersEnded(), "a watcher outlived polybar")
  }
}
