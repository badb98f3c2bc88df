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

  /// Stops the fixture's daemon, starts another on its state folder, and has badgectl make a
  /// change (`command`): the new daemon, and the signal that announced the change, trimmed.
  static func restart(_ fixture: BridgeFixture, then command: [String]) throws -> (
    daemon: DaemonProcess, signal: [String]
  ) {
    #expect(fixture.daemon.stop() == 0)
    let daemon = try DaemonProcess(folder: fixture.folder, environment: fixture.bus.environment)
    try fixture.bus.waitForOwner(of: BridgeFixture.dockName, pid: daemon.pid)
    let monitor = try BusMonitor(bus: fixture.bus, rule: LauncherEntryOutTests.exportRule)
    try badgectl(command, socket: daemon.socket)
    return (daemon, trimmed(try monitor.nextSignal()))
  }

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

    let restarted = try Self.restart(fixture, then: ["decr", "ch"]).signal
    #expect(restarted.contains(Self.appURI))
    #expect(restarted.contains("variant             int64 4"))
  }

  @Test func exportDefaultDropsTheSocketExport() throws {
    let fixture = try BridgeFixture()
    let monitor = try BusMonitor(bus: fixture.bus, rule: LauncherEntryOutTests.exportRule)
    #expect(
      try badgectl(["configure", "ch", "export=org.example.app.desktop"], socket: fixture.daemon.socket).status == 0)
    #expect(Self.trimmed(try monitor.nextSignal()).contains(Self.appURI), "'.desktop' is dropped as in the config")
    #expect(try badgectl(["configure", "ch", "export=default"], socket: fixture.daemon.socket).status == 0)
    try badgectl(["incr", "ch"], socket: fixture.daemon.socket)
    // ch is no longer exported: the next announcement is the other channel's.
    #expect(
      try badgectl(["configure", "other", "export=org.example.other"], socket: fixture.daemon.socket).status == 0)
    let next = Self.trimmed(try monitor.nextSignal())
    #expect(next.contains("string \"application://org.example.other.desktop\""))
  }

  @Test func aBadExportIsRefusedAndChangesNothing() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let before = try client.request("GET ch")
    #expect(
      try client.request("CONFIGURE ch export=my:app") == [
        "ERR bad-setting Invalid value 'my:app' for export: expected a desktop id such as org.example.App (A-Z "
          + "a-z 0-9 . _ -)"
      ])
    #expect(try client.request("GET ch") == before)
    #expect(
      before == ["STATE ch count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0", "OK"])
  }

  /// A desktop id is a D-Bus name, at most 255 bytes: a longer one is refused (it would make a
  /// channel record that recovery reads back as damage), and the longest is kept across a
  /// restart like any other.
  @Test func anExportIdPastTheLongestBusNameIsRefusedAndTheLongestIsKept() throws {
    let fixture = try BridgeFixture()
    let client = try fixture.daemon.client()
    let longest = String(repeating: "a", count: 255)
    #expect(try client.request("SET ch 2").last == "OK")
    let seq = field(try client.request("GET ch")[0], "seq")
    #expect(
      try client.request("CONFIGURE ch export=\(longest)b") == [
        "ERR bad-setting Invalid value '\(longest)b' for export: a desktop id is at most 255 bytes, this one is 256"
      ])
    #expect(
      try client.request("CONFIGURE ch export=\(String(repeating: "a", count: 1000))").first?
        .hasSuffix("a desktop id is at most 255 bytes, this one is 1000") == true)
    #expect(field(try client.request("GET ch")[0], "seq") == seq, "nothing changed")
    #expect(try client.request("CONFIGURE ch export=\(longest).desktop").last == "OK")

    let (daemon, announced) = try Self.restart(fixture, then: ["incr", "ch"])
    #expect(announced.contains("string \"application://\(longest).desktop\""))
    #expect(announced.contains("variant             int64 3"))
    #expect(!daemon.log.contains("<3>") && !daemon.log.contains("<4>"), "recovery read it back whole: \(daemon.log)")
  }
}
