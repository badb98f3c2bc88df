import Foundation
import TestSupport
import Testing

/// What the tray takes from the desktop and from `[tray] empty`: with `reduce_motion = auto` (the
/// default) it follows the settings portal's `enable-animations` (a stand-in portal on the test's
/// bus answers Read, and the test sends SettingChanged), and with `empty = hide` an item leaves
/// the tray while its group counts 0 and comes back with a count.
@Suite(.serialized) struct TrayMotionSettingTests {
  /// Waits until badged-tray's log says `line` (it logs each answer of the portal that changes
  /// whether it animates).
  private func waitForLog(_ tray: TrayProgram, _ line: String) -> Bool {
    waitUntil { tray.log.contains(line) }
  }

  @Test func withReduceMotionAutoItFollowsTheDesktopsAnimationsSetting() throws {
    let rig = try TrayRig()
    try rig.background.start(
      "portal", ["/usr/bin/python3", Repository.path("Tests/EndToEndTests/Fixtures/settings-portal.py"), "false"],
      environment: rig.bus.environment)
    #expect(waitUntil { (try? rig.bus.ownerPID(of: "org.freedesktop.portal.Desktop")) != nil })
    let (watcher, tray) = try rig.registeredTray("items = mail\n")
    #expect(waitForLog(tray, "The desktop asks for reduced motion."), "\(tray.log)")

    // No motion: a change is one frame, drawn at rest (counted from a first change on, once the
    // frames of connecting to badged are drawn).
    try rig.ctl("incr", "mail", "3")
    let first = try watcher.frame(of: tray.item(1)) { $0.capsule != nil }
    try watcher.sync(tray.item(1))
    #expect(first.scale == 1, "\(first)")
    let still = tray.framesDrawn("mail")
    try rig.ctl("incr", "mail")
    let second = try watcher.frame(of: tray.item(1)) { ($0.n ?? 0) > (first.n ?? 0) }
    try watcher.sync(tray.item(1))
    #expect(second.scale == 1 && tray.framesDrawn("mail") == still + 1, "\(tray.log)")

    // The desktop allows motion again: the next change bounces, frame after frame.
    let changed = try run(
      "gdbus",
      [
        "emit", "--session", "--object-path", "/org/freedesktop/portal/desktop", "--signal",
        "org.freedesktop.portal.Settings.SettingChanged", "org.gnome.desktop.interface", "enable-animations",
        "<true>",
      ],
      environment: rig.bus.environment)
    #expect(changed.status == 0, "\(changed.stderr)")
    #expect(waitForLog(tray, "The desktop allows motion."), "\(tray.log)")
    let moving = tray.framesDrawn("mail")
    try rig.ctl("incr", "mail")
    _ = try TrayBusTests.restingFrame(watcher, tray.item(1))
    #expect(tray.framesDrawn("mail") > moving + 5, "a bounce is many frames: \(tray.log)")
  }

  @Test func withEmptyHideAnItemLeavesTheTrayAtZeroAndComesBackWithACount() throws {
    let rig = try TrayRig()
    let watcher = try rig.watcher()
    let tray = try rig.tray("items = mail\nempty = hide\n")
    #expect(waitForLog(tray, "Showing 1 tray items"), "\(tray.log)")

    try rig.ctl("incr", "mail", "2")
    try watcher.registration(of: tray.item(1))
    try rig.ctl("clear", "mail")
    let gone = try watcher.next("mail's item leaving") { $0.event == "unregistered" && $0.item == tray.item(1) }
    #expect(gone.item == tray.item(1))

    try rig.ctl("incr", "mail")
    let back = try watcher.next("mail's item again") { $0.event == "registered" && $0.item == tray.item(1) }
    #expect(back.item == tray.item(1))
    #expect(tray.isRunning)
  }
}
