import Foundation
import Testing

/// badged-tray in Waybar's tray (the `tray` module, headless sway): TrayHostScenario.
@Suite(.serialized) struct TrayWaybarTests {
  @Test func theItemShowsItsCountInWaybarsTrayAndComesBackAfterARestart() throws {
    let rig = try TrayRig()
    try TrayHostScenario.run(rig, WaybarTray(rig))
  }
}
