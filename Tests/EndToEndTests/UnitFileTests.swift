import Foundation
import TestSupport
import Testing

/// The systemd user units, checked by systemd's own parser (`systemd-analyze --user verify`,
/// which needs no running systemd). It only warns about a typo and still exits 0, so any output
/// on standard error is a failure.
@Suite struct UnitFileTests {
  /// The hardening options of badged.service that the other programs' units repeat.
  static let hardening = [
    "NoNewPrivileges", "SystemCallFilter", "SystemCallErrorNumber", "SystemCallArchitectures",
    "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID", "LockPersonality", "MemoryDenyWriteExecute",
    "KeyringMode", "AmbientCapabilities", "UMask",
  ]

  /// The units as `make install` writes them, with ExecStart at the built badged (and
  /// badged-mqtt and badged-sources), and the man pages where `man` finds them (verify checks
  /// `Documentation=man:…`).
  private func verify(
    service: String, socket: String, bridge: String? = nil, sources: String? = nil, tray: String? = nil,
    web: String? = nil
  ) throws -> CtlResult {
    let folder = try TemporaryFolder()
    let units = folder.file("units")
    let runtime = folder.file("run")
    for path in [units, runtime, folder.file("man/man1"), folder.file("man/man5")] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    chmod(runtime, 0o700)
    for page in [
      "man1/badged.1", "man1/badgectl.1", "man1/badged-mqtt.1", "man1/badged-sources.1", "man1/badged-tray.1",
      "man1/badged-web.1", "man5/badged.conf.5",
    ] {
      let name = String(page.split(separator: "/")[1])
      try FileManager.default.copyItem(atPath: Repository.path("man/\(name)"), toPath: folder.file("man/\(page)"))
    }
    _ = try folder.write("units/badged.service", service)
    _ = try folder.write("units/badged.socket", socket)
    var files = [folder.file("units/badged.service"), folder.file("units/badged.socket")]
    if let bridge { files.append(try folder.write("units/badged-mqtt.service", bridge)) }
    if let sources { files.append(try folder.write("units/badged-sources.service", sources)) }
    if let tray { files.append(try folder.write("units/badged-tray.service", tray)) }
    if let web { files.append(try folder.write("units/badged-web.service", web)) }
    return try run(
      "/usr/bin/systemd-analyze", ["--user", "verify"] + files,
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": folder.file("man")])
  }

  private func units() throws -> (service: String, socket: String, bridge: String, sources: String) {
    try Binaries.check()
    let service = try String(contentsOfFile: Repository.path("systemd/badged.service"), encoding: .utf8)
    let socket = try String(contentsOfFile: Repository.path("systemd/badged.socket"), encoding: .utf8)
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    let sources = try String(contentsOfFile: Repository.path("systemd/badged-sources.service"), encoding: .utf8)
    return (
      service.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path), socket,
      bridge.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path),
      sources.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path)
    )
  }

  @Test func theUnitsVerifyWithoutAWarning() throws {
    let (service, socket, bridge, sources) = try units()
    let result = try verify(service: service, socket: socket, bridge: bridge, sources: sources)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func verifyReportsAMistakeOnStandardError() throws {
    // The check above can fail: a misspelt key is reported (with exit status 0).
    let (service, socket, bridge, sources) = try units()
    let result = try verify(
      service: service.replacingOccurrences(of: "WatchdogSec=", with: "WatchDogSec="), socket: socket)
    #expect(result.stderr.contains("Unknown key 'WatchDogSec'"), "\(result.stderr)")
    let bridgeResult = try verify(
      service: service, socket: socket, bridge: bridge.replacingOccurrences(of: "PartOf=", with: "PartsOf="))
    #expect(bridgeResult.stderr.contains("Unknown key 'PartsOf'"), "\(bridgeResult.stderr)")
    let sourcesResult = try verify(
      service: service, socket: socket,
      sources: sources.replacingOccurrences(of: "ReloadPropagatedFrom=", with: "ReloadPropagateFrom="))
    #expect(sourcesResult.stderr.contains("Unknown key 'ReloadPropagateFrom'"), "\(sourcesResult.stderr)")
  }

  @Test func theUnitsSayWhatBadgedDoes() throws {
    let service = try String(contentsOfFile: Repository.path("systemd/badged.service"), encoding: .utf8)
    let socket = try String(contentsOfFile: Repository.path("systemd/badged.socket"), encoding: .utf8)
    let serviceLines = Set(service.split(separator: "\n").map(String.init))
    for line in [
      "Type=notify", "ExecStart=@bindir@/badged", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure",
      "NoNewPrivileges=yes", "MemoryDenyWriteExecute=yes", "Also=badged.socket", "WantedBy=default.target",
    ] {
      #expect(serviceLines.contains(line), "badged.service: \(line)")
    }
    #expect(serviceLines.contains { $0.hasPrefix("WatchdogSec=") })
    #expect(serviceLines.contains { $0.hasPrefix("Documentation=man:badged(1)") })
    let socketLines = Set(socket.split(separator: "\n").map(String.init))
    for line in [
      "ListenStream=%t/badged/badged.sock", "SocketMode=0600", "DirectoryMode=0700", "WantedBy=sockets.target",
    ] {
      #expect(socketLines.contains(line), "badged.socket: \(line)")
    }
  }

  @Test func theBridgesUnitFollowsTheDaemonAndReachesOnlyTheNetworkBesides() throws {
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    let lines = Set(bridge.split(separator: "\n").map(String.init))
    for line in [
      "Type=notify", "ExecStart=@bindir@/badged-mqtt", "Restart=on-failure", "RestartPreventExitStatus=78",
      "After=badged.socket badged.service", "PartOf=badged.service", "WantedBy=default.target badged.service",
      "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "NoNewPrivileges=yes", "MemoryDenyWriteExecute=yes",
      "SystemCallFilter=~@privileged @resources",
    ] {
      #expect(lines.contains(line), "badged-mqtt.service: \(line)")
    }
    #expect(lines.contains { $0.hasPrefix("Documentation=man:badged-mqtt(1)") })
    // Every hardening line of badged.service is there too: the bridge adds the network only.
    let daemon = try String(contentsOfFile: Repository.path("systemd/badged.service"), encoding: .utf8)
    for line in daemon.split(separator: "\n") where Self.hardening.contains(where: { line.hasPrefix($0 + "=") }) {
      #expect(lines.contains(String(line)), "badged-mqtt.service lacks \(line)")
    }
  }

  /// badged-sources' unit follows the daemon as the bridge's does, reloads with it, and has the
  /// bridge's hardening but for MemoryDenyWriteExecute=, which the commands of exec sources
  /// would inherit.
  @Test func theSourcesUnitFollowsTheDaemonAndHasTheBridgesHardeningButForWriteExecute() throws {
    let text = try String(contentsOfFile: Repository.path("systemd/badged-sources.service"), encoding: .utf8)
    let lines = Set(text.split(separator: "\n").map(String.init))
    for line in [
      "Type=notify", "ExecStart=@bindir@/badged-sources", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure",
      "RestartPreventExitStatus=78", "WatchdogSec=30", "After=badged.socket badged.service", "Wants=badged.socket",
      "PartOf=badged.service", "ReloadPropagatedFrom=badged.service", "WantedBy=default.target badged.service",
    ] {
      #expect(lines.contains(line), "badged-sources.service: \(line)")
    }
    #expect(lines.contains { $0.hasPrefix("Documentation=man:badged-sources(1)") })
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    let hardening = Self.hardening.filter { $0 != "MemoryDenyWriteExecute" } + ["RestrictAddressFamilies"]
    for line in bridge.split(separator: "\n") where hardening.contains(where: { line.hasPrefix($0 + "=") }) {
      #expect(lines.contains(String(line)), "badged-sources.service lacks \(line)")
    }
    #expect(!lines.contains { $0.hasPrefix("MemoryDenyWriteExecute=") })
  }

  /// badged-tray's unit lives with the graphical session (its bus and tray) and follows the
  /// daemon, verifies without a warning, and has the hardening of the others, with only Unix
  /// sockets (badged's and the session bus).
  @Test func theTrayUnitBelongsToTheGraphicalSessionVerifiesAndIsHardened() throws {
    let (service, socket, _, _) = try units()
    let text = try String(contentsOfFile: Repository.path("systemd/badged-tray.service"), encoding: .utf8)
    let result = try verify(
      service: service, socket: socket, tray: text.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path))
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let lines = Set(text.split(separator: "\n").map(String.init))
    for line in [
      "Type=notify", "ExecStart=@bindir@/badged-tray", "Restart=on-failure", "RestartPreventExitStatus=78",
      "WatchdogSec=30", "Wants=badged.socket", "PartOf=graphical-session.target badged.service",
      "After=graphical-session.target badged.socket badged.service", "WantedBy=graphical-session.target",
      "RestrictAddressFamilies=AF_UNIX",
    ] {
      #expect(lines.contains(line), "badged-tray.service: \(line)")
    }
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    for line in bridge.split(separator: "\n") where Self.hardening.contains(where: { line.hasPrefix($0 + "=") }) {
      #expect(lines.contains(String(line)), "badged-tray.service lacks \(line)")
    }
  }

  /// badged-web's unit follows the daemon, needs no graphical session, verifies without a
  /// warning, and has the hardening of the others, with the network families it serves on.
  @Test func theWebUnitFollowsTheDaemonVerifiesAndIsHardened() throws {
    let (service, socket, _, _) = try units()
    let text = try String(contentsOfFile: Repository.path("systemd/badged-web.service"), encoding: .utf8)
    let result = try verify(
      service: service, socket: socket, web: text.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path))
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let lines = Set(text.split(separator: "\n").map(String.init))
    for line in [
      "Type=notify", "ExecStart=@bindir@/badged-web", "Restart=on-failure", "RestartPreventExitStatus=78",
      "WatchdogSec=30", "Wants=badged.socket", "PartOf=badged.service", "WantedBy=default.target",
      "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6",
    ] {
      #expect(lines.contains(line), "badged-web.service: \(line)")
    }
    #expect(!lines.contains { $0.contains("graphical-session") })
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    for line in bridge.split(separator: "\n") where Self.hardening.contains(where: { line.hasPrefix($0 + "=") }) {
      #expect(lines.contains(String(line)), "badged-web.service lacks \(line)")
    }
  }
}
