import Foundation
import Testing

/// `CONFIGURE <ch> export=<desktop id>`: a channel exported over the socket is announced to
/// docks exactly like one exported in the config, and the export is kept across restarts.
@Suite struct LauncherEntryConfigureExportTests {
  /// The lines of a `dbus-monitor` signal, trimmed.
  static func trimmed(_ signal: [String]) -> [String] {
    signal.map { $0.trimmingCharacters(in: .whitespaces) }
  }

  static let appURI = "string \"application://org.example.app.desktop\""

  @Test func aSocketExportIsAnnouncedWithCountTypedInt64AndSurvivesARestart() throws {
    let fixture = try BridgeFixture()
    let monitor = try BusMonitor(bus: fixture.bus, rule: LauncherEntryOutTests.exportRule)
    try badgectl(["set", "ch", "2"], socket: fixture.daemon.socket)
    #expect(try badgectl(["configure", "ch", "export=org.example.app"], socket: fixture.daemon.socket).status == 0)
    // Exporting announces the channel as it is; nothing was announced for it before.
    let exported = Self.trimmed(try monitor.nextSignal())
    #expect(exported.contains(Self.appURI))
    #expect(exported.contains("variant             int64 2"))
    try badgectl(["incr", "ch", "3"], socket: fixture.daemon.socket)
    let changed = Self.trimmed(try monitor.nextSignal())
    #expect(changed.contains(Self.appURI))
    #expect(changed.contains("variant             int64 5"))

    #expect(fixture.daemon.stop() == 0)
    let daemon = try DaemonProcess(folder: fixture.folder, environment: fixture.bus.environment)
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
    let after = try BusMonitor(bus: fixture.bus, rule: LauncherEntryOutTests.exportRule)
    try badgectl(["decr", "ch"], socket: daemon.socket)
    let restarted = Self.trimmed(try after.nextSignal())
    #expect(restarted.contains(Self.appURI))
    #expect(restarted.contains("variant             int64 4"))
  }

  @Test func exportDefaultDropsTheSocketExport() throws {
    let fixture = try BridgeFixture()
    let monitor = try BusMonitor(bus: fixture.bus, rule: LauncherEntryOutTests.exportRule)
    #expect(try badgectl(["configure", "ch", "export=org.example.app.desktop"], socket: fixture.daemon.socket).status == 0)
    #expect(Self.trimmed(try monitor.nextSignal()).contains(Self.appURI), "'.desktop' is dropped as in the config")
    #expect(try badgectl(["configure", "ch", "export=default"], socket: fixture.daemon.socket).status == 0)
    try badgectl(["incr", "ch"], socket: fixture.daemon.socket)
    // ch is no longer exported: the next announcement is the other channel's.
    #expect(try badgectl(["configure", "other", "export=org.example.other"], socket: fixture.daemon.socket).status == 0)
    let next = Self.trimmed(try monitor.nextSignal())
    #expect(next.contains("string \"application://org.example.other.desktop\""))
  }

  @Test func aBadExportIsRefusedAndChangesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let before = try client.request("GET ch")
    #expect(try client.request("CONFIGURE ch export=my:app") == [
      "ERR bad-setting Invalid value 'my:app' for export: expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)",
    ])
    #expect(try client.request("GET ch") == before)
    #expect(before == ["STATE ch count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK"])
  }
}
