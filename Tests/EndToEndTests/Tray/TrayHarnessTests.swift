import Foundation
import Testing

/// The tray harness itself, checked against a stand-in item (Fixtures/tray-item.py) that
/// serves a known red capsule, never against the product: the recording watcher measures each
/// frame's capsule, and each real host shows an item's capsule where the pixel checks look.
@Suite(.serialized) struct TrayHarnessTests {
  @Test func theWatcherReadsEachFrameAndMeasuresItsCapsule() throws {
    let folder = try TemporaryFolder()
    let bus = try SessionBus(folder: folder)
    let watcher = try TrayWatcher(bus: bus, folder: folder)
    let item = try StandInItem(bus: bus)
    try watcher.registration(of: item.name)

    try item.draw(scale: 1)
    let resting = try #require(watcher.frame(of: item.name).capsule)
    // 0.42 × 64 = 26.88 px high, at the top-right corner.
    #expect(abs(resting.h - 27) <= 1 && resting.y == 0 && resting.x + resting.w == 64, "\(resting)")
    try item.draw(scale: 1.2)
    let grown = try watcher.frame(of: item.name)
    #expect(grown.scale == 1.2 && grown.n == 2 && grown.sizes == [32, 64])
    #expect(CapsuleGeometry.fits(grown.capsule, scale: 1.2, resting: resting), "\(grown)")
    #expect(!CapsuleGeometry.fits(grown.capsule, scale: 1, resting: resting), "a 20 % larger capsule is told apart")
    try watcher.sync(item.name)
    #expect(try watcher.quietReports(quiet: 0.2).isEmpty)
  }

  @Test func waybarShowsAnItemsCapsuleAtItsTopRight() throws {
    let rig = try TrayRig()
    try TrayHarnessTests.checkHostShowsTheStandIn(rig, WaybarTray(rig))
  }

  @Test func xfcePanelShowsAnItemsCapsuleAtItsTopRight() throws {
    let rig = try TrayRig()
    try TrayHarnessTests.checkHostShowsTheStandIn(rig, XfcePanel(rig))
  }

  static func checkHostShowsTheStandIn(_ rig: TrayRig, _ host: some TrayHost) throws {
    let item = try StandInItem(bus: rig.bus)
    let shown = try host.settledStrip { $0.capsule != nil }
    #expect(shown.matched, "\(shown.strip): \(host.log)")
    #expect(shown.strip.capsuleIsAtTopRight, "\(shown.strip)")
    // Icons are drawn at 32 px: the capsule 0.42 of that high.
    #expect(shown.strip.capsule.map { abs($0.height - 13) <= 1 } == true, "\(shown.strip)")
    try host.restart()
    if !host.drawsAnItemRegisteredAtItsStart {
      // Waybar draws it on its next NewIcon (TrayHost.drawsAnItemRegisteredAtItsStart).
      #expect(waitUntil { (try? rig.bus.registeredTrayItems().contains(item.name)) == true })
      try item.draw(scale: 1)
    }
    let again = try host.settledStrip { $0.capsule != nil }
    #expect(again.matched && again.strip.capsule == shown.strip.capsule, "\(again.strip): \(host.log)")
    _ = item
  }
}
