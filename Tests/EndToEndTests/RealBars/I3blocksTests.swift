import Foundation
import Testing

/// i3bar with i3blocks 1.4, under i3 in Xvfb, running contrib/bars/i3blocks (docs/BARS.md's
/// block) with the built badgectl.
@Suite struct I3blocksTests {
  @Test func theBlockIsUrgentDuringThePulseThenShowsTheCount() throws {
    let rig = try BarRig(pulseMs: 1500)
    let x = try XServer(rig.background)
    let blocks = try rig.file("i3blocks.conf", Contrib.config("i3blocks/i3blocks.conf"))
    let config = try rig.file(
      "i3.conf",
      """
      # i3 config file (v4)
      font pango:DejaVu Sans 14
      bar {
        status_command exec i3blocks -c \(blocks)
        position top
        colors {
          background \(BarTheme.current.background)
          statusline \(BarTheme.current.foreground)
        }
      }

      """)
    // i3 puts its IPC socket in XDG_RUNTIME_DIR: one of its own.
    let runtime = rig.daemon.folder.file("i3-run")
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var environment = rig.environment(x.environment)
    environment["XDG_RUNTIME_DIR"] = runtime
    try rig.background.start("i3", ["i3", "-c", config], environment: environment)
    let shot = { try x.screenshot() }
    _ = try rig.waitForBar("i3", shot)

    // A count arrives: i3bar shows the block as urgent ("urgent": "true") for the window…
    try badgectl(["set", "mail", "5"], socket: rig.socket)
    let urgent = try pollScreenshot(shot) { $0.count(BarColours.urgent) > 50 }
    #expect(urgent.matched, "not urgent: \(rig.background.log("i3"))")
    keepScreenshot(rig.background, "i3blocks-urgent")
    // …then in the badge's colour.
    let resting = try pollScreenshot(shot) {
      $0.count(BarColours.urgent) == 0 && $0.count(BarColours.unread, tolerance: 12) > 10
    }
    #expect(resting.matched)
    keepScreenshot(rig.background, "i3blocks")

    // Cleared, the block empties. (Clicks are not tried here: i3blocks 1.4 does not pass them
    // to persistent blocks; WatchClickTests covers the lines 1.5 writes.)
    try badgectl(["clear", "mail"], socket: rig.socket)
    let cleared = try pollScreenshot(shot) { $0.count(BarColours.unread, tolerance: 12) == 0 }
    #expect(cleared.matched)

    #expect(rig.stopAndCheckWatchersEnded(), "a watcher outlived i3bar")
  }
}
