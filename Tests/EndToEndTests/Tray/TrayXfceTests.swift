import Foundation
import Testing

/// badged-tray in xfce4-panel's systray plugin (Xvfb): TrayHostScenario.
@Suite(.serialized) struct TrayXfceTests {
  @Test func theItemShowsItsCountInXfcesSystrayAndComesBackAfterARestart() throws {
    let rig = try TrayRig()
    try TrayHostScenario.run(rig, XfcePanel(rig))
  }
}
