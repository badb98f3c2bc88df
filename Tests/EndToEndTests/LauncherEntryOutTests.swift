import Foundation
import Testing

/// Channels exported to docks, and badged standing in for a dock only while there is none.
@Suite struct LauncherEntryOutTests {
  static let exportRule = "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"

  @Test func exportedChannelsAreAnnouncedWithCountTypedInt64() throws {
    let fixture = try BridgeFixture(config: "[channel mail]\nexport = org.example.Mail\n")
    let monitor = try BusMonitor(bus: fixture.bus, rule: Self.exportRule)
    try badgectl(["incr", "mail", "2"], socket: fixture.daemon.socket)
    let signal = try monitor.nextSignal()
    #expect(signal[0].contains("path=/com/canonical/unity/launcherentry/"))
    #expect(
      signal.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == [
        "string \"application://org.example.Mail.desktop\"", "array [",
        "dict entry(", "string \"count\"", "variant             int64 2", ")",
        "dict entry(", "string \"count-visible\"", "variant             boolean true", ")",
        "dict entry(", "string \"urgent\"", "variant             boolean true", ")",
        "]",
      ])
    try badgectl(["clear", "mail"], socket: fixture.daemon.socket)
    let cleared = try monitor.nextSignal().map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(cleared.contains("variant             int64 0"))
    #expect(cleared.contains("variant             boolean false"))
    #expect(!cleared.contains("variant             boolean true"))
  }

  @Test func gdbusMonitorSeesTheExportWithCountTypedInt64() throws {
    let fixture = try BridgeFixture(config: "[channel mail]\nexport = org.example.Mail\n")
    let monitor = try Child(
      ["gdbus", "monitor", "--session", "--dest", BridgeFixture.dockName],
      environment: Child.environment(fixture.bus.environment),
      stdout: .pipe)
    defer { monitor.signal(SIGTERM) }
    var input = LineInput(fd: monitor.output)
    // It subscribes before it asks who owns the name, so it listens once it says.
    while try input.next(timeout: 10, what: "gdbus monitor")?.contains("is owned by") == false {}
    try badgectl(["incr", "mail", "2"], socket: fixture.daemon.socket)
    let line = try #require(try input.next(timeout: 10, what: "gdbus monitor"))
    #expect(line.hasPrefix("/com/canonical/unity/launcherentry/"))
    #expect(
      line.hasSuffix(
        ": com.canonical.Unity.LauncherEntry.Update ('application://org.example.Mail.desktop', "
          + "{'count': <int64 2>, 'count-visible': <true>, 'urgent': <true>})"))
  }

  @Test func badgedNeverImportsItsOwnSignals() throws {
    let fixture = try BridgeFixture(config: "[channel mail]\nexport = org.example.Mail\n")
    let watcher = try fixture.watcher("app:*")
    let monitor = try BusMonitor(bus: fixture.bus, rule: Self.exportRule)
    try badgectl(["incr", "mail", "2"], socket: fixture.daemon.socket)
    _ = try monitor.nextSignal()
    // The bus delivers the daemon's own signal back to it before this one.
    let app = try BusPeer(bus: fixture.bus)
    try app.send("update / application://other.desktop count=x:1 count-visible=b:true")
    #expect(try watcher.nextEvent() == "app:other count=1", "no app:org.example.Mail before it")
  }

  @Test func aNewDockGetsTheFullStateAgain() throws {
    let fixture = try BridgeFixture(config: "[channel mail]\nexport = org.example.Mail\n")
    try badgectl(["set", "mail", "4"], socket: fixture.daemon.socket)
    let monitor = try BusMonitor(bus: fixture.bus, rule: Self.exportRule)
    let dock = try BusPeer(bus: fixture.bus)
    #expect(try dock.send("own \(BridgeFixture.dockName) replace") == "own 1")
    let signal = try monitor.nextSignal().map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(signal.contains("string \"application://org.example.Mail.desktop\""))
    #expect(signal.contains("variant             int64 4"))
  }

  @Test func badgedYieldsTheDockNameToALaterDockAndTakesItBackWhenItLeaves() throws {
    let fixture = try BridgeFixture()
    let dock = try BusPeer(bus: fixture.bus)
    #expect(try dock.send("own \(BridgeFixture.dockName) replace") == "own 1")
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: dock.pid)
    dock.quit()
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: fixture.daemon.pid)
  }

  @Test func badgedNeverTakesTheDockNameFromADock() throws {
    let folder = try TemporaryFolder()
    let bus = try SessionBus(folder: folder)
    let dock = try BusPeer(bus: bus)
    #expect(try dock.send("own \(BridgeFixture.dockName)") == "own 1")
    let daemon = try DaemonProcess(folder: folder, environment: bus.environment)
    // Its request waits in the queue behind the dock.
    let queued = try BusPeer(bus: bus)
    let listed = try waitUntil {
      try queued.send("queue \(BridgeFixture.dockName)").split(separator: " ").count == 3
    }
    #expect(listed)
    #expect(try bus.ownerPID(of: BridgeFixture.dockName) == dock.pid)
    dock.quit()
    try bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
  }
}
