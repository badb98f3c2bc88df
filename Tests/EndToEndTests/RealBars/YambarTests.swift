import Foundation
import Testing

/// yambar 1.9 in a headless sway, running contrib/bars/yambar (docs/BARS.md's script module)
/// with the built badgectl.
@Suite struct YambarTests {
  /// A bar around docs/BARS.md's module.
  static let bar = """
    bar:
      height: 30
      location: top
      background: \(BarTheme.current.yambarBackground)
      font: DejaVu Sans:pixelsize=18
      left:

    """

  @Test func theModuleMapsThePulseAndTheCountToColours() throws {
    let rig = try BarRig(pulseMs: 1500)
    let sway = try HeadlessSway(rig.background)
    let config = try rig.file("yambar.yml", YambarTests.bar + Contrib.config("yambar/config.yml"))
    try rig.background.start(
      "yambar", ["yambar", "-b", "wayland", "-c", config], environment: rig.environment(sway.environment))
    let shot = { try sway.screenshot() }
    let empty = try rig.waitForBar("yambar", shot)
    #expect(empty.count(BarColours.unread, tolerance: 12) == 0)

    // The set with pulse|bool|true maps to the pulse colour, then the count to the badge's.
    try badgectl(["set", "mail", "8"], socket: rig.socket)
    let pulsing = try pollScreenshot(shot) { $0.count(BarColours.pulse, tolerance: 12) > 15 }
    #expect(pulsing.matched, "no pulse: \(rig.background.log("yambar"))")
    keepScreenshot(rig.background, "yambar-pulse")
    let resting = try pollScreenshot(shot) {
      $0.count(BarColours.unread, tolerance: 12) > 15 && $0.count(BarColours.pulse, tolerance: 12) == 0
    }
    #expect(resting.matched)
    keepScreenshot(rig.background, "yambar")

    // count|int|0 maps to nothing.
    try badgectl(["clear", "mail"], socket: rig.socket)
    let cleared = try pollScreenshot(shot) { $0.count(BarColours.unread, tolerance: 12) == 0 }
    #expect(cleared.matched)

    #expect(rig.stopAndCheckWatchersEnded(), "a watcher outlived yambar")
  }
}
