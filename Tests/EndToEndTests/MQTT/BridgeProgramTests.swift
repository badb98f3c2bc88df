import Foundation
import Testing

/// The built `badged-mqtt` against a real broker, where no daemon is needed: its command line,
/// the config and the files it names refused at start, a wrong password and a bad certificate
/// reported once however often they are tried, and its last will when it is killed.
@Suite struct BridgeProgramTests {
  /// `[mqtt]` for `desktop` against `broker`, sharing `share`, its password in a private file;
  /// `extra` lines after the others.
  static func config(
    _ broker: Broker, password: String = "desktop-secret", caFile: String? = nil, share: String = "mail",
    extra: String = ""
  ) throws -> String {
    let passwordFile = try broker.folder.write("desktop-password", password + "\n")
    chmod(passwordFile, 0o600)
    return try broker.folder.write(
      "badged.conf",
      """
      [daemon]
      pulse_ms = 1500

      [mqtt]
      broker = \(broker.url)
      host = desktop
      prefix = badged/ana
      username = desktop
      password_file = \(passwordFile)
      ca_file = \(caFile ?? broker.caFile)
      share = \(share)
      \(extra)
      """)
  }

  /// The bridge, started with `config` and the daemon socket `socket` (by default one where no
  /// daemon is).
  static func start(_ broker: Broker, config: String, socket: String? = nil) throws -> (Child, String) {
    let log = broker.folder.file("bridge-\(UUID().uuidString.prefix(6)).log")
    let child = try Child(
      [
        Binaries.badgedMQTT.path, "--config", config, "--socket", socket ?? broker.folder.file("no-daemon.sock"),
        "--log-level", "debug",
      ],
      environment: Child.environment(), stderr: .file(log))
    return (child, log)
  }

  static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  @Test func helpVersionAndAWrongCommandLine() throws {
    try Binaries.check()
    let help = try run(Binaries.badgedMQTT.path, ["--help"])
    #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: Shares badged's channels"))
    let version = try run(Binaries.badgedMQTT.path, ["--version"])
    #expect(version.stdout == "badged-mqtt 0.1.0\n")
    let wrong = try run(Binaries.badgedMQTT.path, ["--state-dir", "/x"])
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr
        == "Error: Unknown option '--state-dir'\nUsage: badged-mqtt [--socket <path>] [--config <file>] "
        + "[--log-level <level>]\n  See 'badged-mqtt --help' for more information.\n"
    )
  }

  @Test func aConfigItCannotUseIsRefusedAtStartWithItsPlace() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let missing = try run(Binaries.badgedMQTT.path, ["--config", folder.file("none.conf")])
    #expect(missing.status == 78)
    #expect(
      missing.stderr
        == "<3>Failed to load configuration: \(folder.file("none.conf")): Failed to open: No such file or directory\n")
    let noSection = try folder.write("daemon-only.conf", "[daemon]\npulse_ms = 100\n")
    let refused = try run(Binaries.badgedMQTT.path, ["--config", noSection])
    #expect(refused.status == 78)
    #expect(
      refused.stderr.contains(
        "\(noSection): No [mqtt] section; badged-mqtt needs at least 'broker = mqtts://host:8883' in it"))
    let plain = try folder.write("plain.conf", "[mqtt]\nbroker = mqtt://broker.lan\n")
    #expect(
      try run(Binaries.badgedMQTT.path, ["--config", plain]).stderr.contains(
        "\(plain):2: Invalid value 'mqtt://broker.lan' for broker: plain mqtt://"))
  }

  @Test func aPasswordFileOthersCanReadIsRefusedAtStart() throws {
    try Binaries.check()
    let broker = try Broker()
    let config = try Self.config(broker)
    let passwordFile = broker.folder.file("desktop-password")
    chmod(passwordFile, 0o644)
    let result = try run(Binaries.badgedMQTT.path, ["--config", config])
    #expect(result.status == 78)
    #expect(
      result.stderr
        == "<3>Failed to load configuration: \(config):9: password_file '\(passwordFile)' can be read by its "
        + "group or others (mode 0644); refusing it until only its owner can: chmod 600 '\(passwordFile)'\n"
    )
    #expect(!broker.log.contains("u'desktop'"))
    let missingCA = try Self.config(broker, caFile: broker.folder.file("no-ca.pem"))
    let noCA = try run(Binaries.badgedMQTT.path, ["--config", missingCA])
    #expect(noCA.status == 78)
    #expect(
      noCA.stderr.contains(
        "\(missingCA):10: Failed to read ca_file '\(broker.folder.file("no-ca.pem"))': No such file or directory"))
  }

  @Test func aWrongPasswordIsReportedOnceHoweverOftenItIsTried() throws {
    try Binaries.check()
    let broker = try Broker()
    let (bridge, log) = try Self.start(broker, config: try Self.config(broker, password: "wrong"))
    // Tried again and again, with backoff.
    #expect(waitUntil(timeout: 15) { broker.log.components(separatedBy: "disconnected, not authorised").count > 3 })
    bridge.signal(SIGTERM)
    #expect(bridge.wait() == 0)
    let refusals = Self.text(log).split(separator: "\n").filter { $0.contains("Failed to log in") }
    #expect(
      refusals == [
        "<3>Failed to log in to the broker \(broker.url): Not authorized; check username and password_file. "
          + "Retrying quietly."
      ], "\(Self.text(log))")
  }

  @Test func aBrokerCertificateItCannotTrustIsReportedOnceAndNeverBypassed() throws {
    try Binaries.check()
    let broker = try Broker()
    let (bridge, log) = try Self.start(broker, config: try Self.config(broker, caFile: broker.otherCAFile))
    #expect(waitUntil(timeout: 15) { broker.log.components(separatedBy: "New connection from 127.0.0.1").count > 3 })
    bridge.signal(SIGTERM)
    #expect(bridge.wait() == 0)
    let failures = Self.text(log).split(separator: "\n").filter { $0.contains("TLS") }
    #expect(
      failures == [
        "<3>Failed to set up TLS with the broker \(broker.url): certificate verify failed; check ca_file and the "
          + "broker's certificate. Never falling back to plain MQTT; retrying quietly."
      ], "\(Self.text(log))")
    #expect(!broker.log.contains("u'desktop'"))
  }

  @Test func aKilledBridgesLastWillSaysItsMachineIsOffline() throws {
    try Binaries.check()
    let broker = try Broker()
    let watcher = try broker.subscriber(["badged/ana/host/desktop/status"], as: "phone")
    // Retained, so the watcher has it whether it subscribed before or after: then it listens.
    // (Only the desktop's account may write the desktop's status.)
    try broker.publish("badged/ana/host/desktop/status", "ready", as: "desktop", retain: true)
    #expect(watcher.wait { $0.hasPrefix("badged/ana/host/desktop/status|") && $0.hasSuffix("|ready") })
    let (bridge, log) = try Self.start(broker, config: try Self.config(broker))
    // Without its daemon the machine is offline, from the first moment.
    #expect(watcher.wait { $0 == "badged/ana/host/desktop/status|0|offline" }, "\(Self.text(log))")
    #expect(Self.text(log).contains("<5>Connected to the broker \(broker.url)."))
    let before = watcher.lines.count
    bridge.signal(SIGKILL)
    bridge.wait()
    // The broker publishes the will the moment the connection dies.
    #expect(waitUntil { watcher.lines.count == before + 1 })
    #expect(watcher.lines.last == "badged/ana/host/desktop/status|0|offline")
  }
}
