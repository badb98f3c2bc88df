import Foundation
import TestSupport
import Testing

/// The systemd user units, checked by systemd's own parser (`systemd-analyze --user verify`,
/// which needs no running systemd). It only warns about a typo and still exits 0, so any output
/// on standard error is a failure.
@Suite struct UnitFileTests {
  /// The units as `make install` writes them, with ExecStart at the built badged (and
  /// badged-mqtt), and the man pages where `man` finds them (verify checks
  /// `Documentation=man:…`).
  private func verify(service: String, socket: String, bridge: String? = nil) throws -> CtlResult {
    let folder = try TemporaryFolder()
    let units = folder.file("units")
    let runtime = folder.file("run")
    for path in [units, runtime, folder.file("man/man1"), folder.file("man/man5")] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    chmod(runtime, 0o700)
    for page in ["man1/badged.1", "man1/badgectl.1", "man1/badged-mqtt.1", "man5/badged.conf.5"] {
      let name = String(page.split(separator: "/")[1])
      try FileManager.default.copyItem(atPath: Repository.path("man/\(name)"), toPath: folder.file("man/\(page)"))
    }
    _ = try folder.write("units/badged.service", service)
    _ = try folder.write("units/badged.socket", socket)
    var files = [folder.file("units/badged.service"), folder.file("units/badged.socket")]
    if let bridge { files.append(try folder.write("units/badged-mqtt.service", bridge)) }
    return try run(
      "/usr/bin/systemd-analyze", ["--user", "verify"] + files,
      environment: ["XDG_RUNTIME_DIR": runtime, "MANPATH": folder.file("man")])
  }

  private func units() throws -> (service: String, socket: String, bridge: String) {
    try Binaries.check()
    let service = try String(contentsOfFile: Repository.path("systemd/badged.service"), encoding: .utf8)
    let socket = try String(contentsOfFile: Repository.path("systemd/badged.socket"), encoding: .utf8)
    let bridge = try String(contentsOfFile: Repository.path("systemd/badged-mqtt.service"), encoding: .utf8)
    return (
      service.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path), socket,
      bridge.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path)
    )
  }

  @Test func theUnitsVerifyWithoutAWarning() throws {
    let (service, socket, bridge) = try units()
    let result = try verify(service: service, socket: socket, bridge: bridge)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func verifyReportsAMistakeOnStandardError() throws {
    // The check above can fail: a misspelt key is reported (with exit status 0).
    let (service, socket, bridge) = try units()
    let result = try verify(
      service: service.replacingOccurrences(of: "WatchdogSec=", with: "WatchDogSec="), socket: socket)
    #expect(result.stderr.contains("Unknown key 'WatchDogSec'"), "\(result.stderr)")
    let bridgeResult = try verify(
      service: service, socket: socket, bridge: bridge.replacingOccurrences(of: "PartOf=", with: "PartsOf="))
    #expect(bridgeResult.stderr.contains("Unknown key 'PartsOf'"), "\(bridgeResult.stderr)")
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
    let hardening = [
      "NoNewPrivileges", "SystemCallFilter", "SystemCallErrorNumber", "SystemCallArchitectures",
      "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID", "LockPersonality", "MemoryDenyWriteExecute",
      "KeyringMode", "AmbientCapabilities", "UMask",
    ]
    for line in daemon.split(separator: "\n") where hardening.contains(where: { line.hasPrefix($0 + "=") }) {
      #expect(lines.contains(String(line)), "badged-mqtt.service lacks \(line)")
    }
  }
}
