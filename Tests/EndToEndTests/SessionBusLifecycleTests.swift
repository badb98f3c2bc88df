import Foundation
import Testing

/// The daemon without a session bus: it serves with one log line and joins the bus when it
/// comes (back).
@Suite struct SessionBusLifecycleTests {
  @Test func withoutABusTheDaemonServesAndJoinsTheBusWhenItComes() throws {
    let folder = try TemporaryFolder()
    let runtime = folder.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    // No DBUS_SESSION_BUS_ADDRESS (empty is unset), and no bus where XDG_RUNTIME_DIR says.
    let bus = try SessionBus(folder: folder, socketPath: runtime + "/bus", start: false)
    let daemon = try DaemonProcess(
      folder: folder, environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": runtime])
    #expect(try badgectl(["incr", "mail"], socket: daemon.socket).stdout == "mail 1 pulsing\n")
    let noBus = daemon.log.split(separator: "\n").filter { $0.contains("session bus") }
    #expect(
      noBus == [
        "<5>No session bus for the LauncherEntry bridge (Failed to connect to the session bus at "
          + "'unix:path=\(runtime)/bus': No such file or directory); retrying until there is one."
      ])
    try bus.start()
    try bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH app:late").last == "OK watching")
    let app = try BusPeer(bus: bus)
    try app.send("update / application://late.desktop count=x:2 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:late count=2")
  }

  @Test func whenTheBusGoesAwayTheDaemonServesAndReconnectsWhenItIsBack() throws {
    let fixture = try BridgeFixture()
    fixture.bus.stop()
    #expect(try badgectl(["incr", "mail"], socket: fixture.daemon.socket).stdout == "mail 1 pulsing\n")
    #expect(
      waitUntil {
        fixture.daemon.log.contains("Lost the session bus for the LauncherEntry bridge; reconnecting when it is back.")
      })
    try fixture.bus.start()
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: fixture.daemon.pid)
    let watcher = try fixture.watcher("app:back")
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://back.desktop count=x:5 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:back count=5")
    #expect(
      fixture.daemon.log.split(separator: "\n").filter { $0.hasPrefix("<5>") && $0.contains("session bus") }.count == 1)
  }
}
