import Foundation
import Testing

/// Waybar 0.9 in a headless sway, running contrib/bars/waybar (the module and CSS the README
/// and docs/BARS.md show) with the built badgectl.
@Suite struct WaybarTests {
  /// A font and a background for the bar, around the README's CSS.
  static let base = """
    * { font-family: "DejaVu Sans"; font-size: 16px; }
    window#waybar { background: \(BarTheme.current.background); color: \(BarTheme.current.foreground); }

    """

  @Test func theModuleShowsTheCountStyledByItsClassesAndHidesAtZero() throws {
    let rig = try BarRig(pulseMs: 1500)
    let sway = try HeadlessSway(rig.background)
    let config = try rig.file("waybar.json", Contrib.config("waybar/config"))
    let style = try rig.file("style.css", WaybarTests.base + Contrib.text("waybar/style.css"))
    try rig.background.start(
      "waybar", ["waybar", "-c", config, "-s", style], environment: rig.environment(sway.environment))
    let shot = { try sway.screenshot() }

    // The bar is drawn, and the module is hidden while the count is 0.
    let empty = try rig.waitForBar("waybar", shot)
    #expect(empty.count(BarColours.unread) == 0 && empty.count(BarColours.pulse) == 0)

    // A count arrives: the class "pulse" paints the module for the pulse window, where the
    // count fades in and then stays still (two screenshots alike)…
    try badgectl(["set", "mail", "7"], socket: rig.socket)
    var previous: Screenshot?
    let pulsing = try pollScreenshot(shot) { current in
      defer { previous = current }
      return current.count(BarColours.pulse) > 200 && previous.map { current.difference(from: $0) == 0 } == true
    }
    #expect(pulsing.matched, "no pulse: \(rig.background.log("waybar"))")
    keepScreenshot(rig.background, "waybar-pulse")
    // …then "unread" alone.
    let resting = try pollScreenshot(shot) { $0.count(BarColours.unread) > 200 && $0.count(BarColours.pulse) == 0 }
    #expect(resting.matched)
    keepScreenshot(rig.background, "waybar")
    #expect(resting.shot.difference(from: pulsing.shot) > 200)

    // Cleared, the module fades out and is hidden again.
    try badgectl(["clear", "mail"], socket: rig.socket)
    let cleared = try pollScreenshot(shot) { $0.count(BarColours.unread) == 0 && $0.count(BarColours.pulse) == 0 }
    #expect(cleared.matched)

    #expect(rig.stopAndCheckWatchersEnded(), "a watcher outlived Waybar")
  }
}
