import Foundation
import Testing

/// What TrayWaybarTests and TrayXfceTests check of their host, in one place: badged-tray's item
/// shows in the host's strip, a count draws the red capsule at the icon's top-right corner,
/// "99+" draws it wider, the host restarted shows the item again with its count, and clearing
/// takes every pixel of the badge colour away.
enum TrayHostScenario {
  static func run(_ rig: TrayRig, _ host: some TrayHost) throws {
    let tray = try rig.tray()
    if host.showsPassiveItems {
      // At 0 the item is Passive: the bell alone.
      let bell = try host.settledStrip { $0.showsAnIcon }
      #expect(bell.matched && bell.strip.badgePixels == 0, "\(bell.strip): \(tray.log) \(host.log)")
    }

    try rig.ctl("incr", "mail", "3")
    let three = try host.settledStrip { $0.capsule != nil }
    #expect(three.matched, "\(three.strip): \(tray.log) \(host.log)")
    #expect(three.strip.capsuleIsAtTopRight, "\(three.strip)")
    keepTrayPicture(rig.background, host)
    let narrow = try #require(three.strip.capsule)

    try rig.ctl("set", "mail", "120")
    let many = try host.settledStrip { ($0.capsule?.width ?? 0) > narrow.width }
    #expect(many.matched, "\"99+\" is wider than \"3\": \(many.strip)")
    #expect(many.strip.capsule?.height == narrow.height, "it keeps its height: \(many.strip)")

    // A restarted host shows the item with its count, without a change to draw: badged-tray
    // tells a host that registered it everything again a moment later (Waybar 0.9 draws an
    // item that registered in its first moments only at its next NewIcon).
    try host.restart()
    let back = try host.settledStrip { $0.capsule != nil }
    #expect(back.matched && back.strip.capsule == many.strip.capsule, "\(back.strip): \(tray.log) \(host.log)")

    try rig.ctl("clear", "mail")
    let cleared = try host.settledStrip { $0.badgePixels == 0 }
    #expect(cleared.matched, "\(cleared.strip)")
    #expect(tray.isRunning)
  }
}
