import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One machine of a `MeshNetwork`: its own state, socket and config folder, the built `badged`
/// and `badged-mqtt` started in its namespace, and its link to the broker. Its `[mqtt]` section
/// names it `host = <name>`, logs in as the broker's account of that name (or another), and uses
/// the smallest keepalive the config takes, so a cut link is noticed in seconds.
final class Machine {
  /// How long a test waits for something to arrive through the broker: generous, since a
  /// loaded machine may be slow; a test that passes never waits that long.
  static let patience = 60.0

  let name: String
  let link: NetworkHost
  let folder: TemporaryFolder
  let configFile: String
  let network: MeshNetwork
  private(set) var daemon: DaemonProcess?
  private var bridge: Child?
  private let bridgeLogPath: String

  /// - Parameters:
  ///   - share: the `share` patterns (none: it mirrors only).
  ///   - password: the account's password, when not the right one.
  ///   - caFile: the CA it trusts, when not the broker's.
  ///   - account: the broker's account it logs in as, when not the one named after it.
  ///   - settings: more lines of its `[mqtt]` section (`homeassistant = yes`).
  ///   - start: start its daemon and bridge at once.
  init(
    _ name: String, on network: MeshNetwork, share: String = "", password: String? = nil, caFile: String? = nil,
    account: String? = nil, settings: [String] = [], start: Bool = true
  ) throws {
    try Binaries.check()
    self.name = name
    self.network = network
    link = try network.join(name)
    folder = try TemporaryFolder()
    bridgeLogPath = folder.file("badged-mqtt.log")
    let account = account ?? name
    let passwordFile = try folder.write("password", (password ?? Broker.passwords[account]!) + "\n")
    chmod(passwordFile, 0o600)
    configFile = try folder.write(
      "badged.conf",
      """
      [mqtt]
      broker = \(network.broker.url)
      host = \(name)
      prefix = badged/ana
      username = \(account)
      password_file = \(passwordFile)
      ca_file = \(caFile ?? network.broker.caFile)
      keepalive_s = 5
      \(share.isEmpty ? "" : "share = \(share)")
      \(settings.joined(separator: "\n"))

      """)
    if start {
      try startDaemon()
      try startBridge()
    }
  }

  var socket: String { folder.file("badged.sock") }

  // MARK: Processes

  /// Starts `badged` in the machine's namespace, on the machine's state (kept across restarts).
  func startDaemon() throws {
    daemon = try DaemonProcess(
      folder: folder, socket: socket, arguments: ["--log-level", "debug"], wrapper: link.launcher)
  }

  /// Starts `badged-mqtt` in the machine's namespace.
  func startBridge() throws {
    bridge = try Child(
      link.launcher + [
        Binaries.badgedMQTT.path, "--config", configFile, "--socket", socket, "--log-level", "debug",
      ], environment: Child.environment(), stderr: .file(bridgeLogPath))
  }

  /// Stops the bridge as its service does (SIGTERM): it leaves the broker with its last will
  /// (`offline`) before it ends. Its exit status.
  @discardableResult
  func stopBridge() -> Int32 {
    defer { bridge = nil }
    bridge?.signal(SIGTERM)
    return bridge?.wait() ?? 0
  }

  /// kill -9 of the bridge: its connection to the broker dies with it (the broker sends its
  /// last will at once).
  func killBridge() {
    bridge?.signal(SIGKILL)
    bridge?.wait()
    bridge = nil
  }

  /// kill -9 of the daemon.
  func killDaemon() {
    daemon?.crash()
    daemon = nil
  }

  /// Stops and resumes the bridge (SIGSTOP, SIGCONT): it takes nothing from its daemon or the
  /// broker meanwhile, and its connections stay open.
  func freezeBridge() { bridge?.signal(SIGSTOP) }
  func thawBridge() { bridge?.signal(SIGCONT) }

  var bridgeIsRunning: Bool { bridge?.isRunning ?? false }

  /// The bridge's process id, while it runs (`ip netns exec` runs it in place).
  var bridgePID: pid_t? { bridge?.pid }

  /// The partition of this machine alone, and its end.
  func cut() throws { try link.cut() }
  func heal() throws { try link.heal() }

  var bridgeLog: String { (try? String(contentsOfFile: bridgeLogPath, encoding: .utf8)) ?? "" }

  /// The last lines of the bridge's and the daemon's logs, for a failure's message.
  var diagnostics: String {
    let bridgeLines = bridgeLog.split(separator: "\n").suffix(30).joined(separator: "\n")
    let daemonLines = (daemon?.log ?? "").split(separator: "\n").suffix(30).joined(separator: "\n")
    return "\(name)'s bridge:\n\(bridgeLines)\n\(name)'s badged:\n\(daemonLines)"
  }

  // MARK: The daemon's socket

  /// A request on a new connection; its reply's lines.
  @discardableResult
  func request(_ line: String) throws -> [String] {
    let reply = try RawClient(path: socket).request(line)
    guard reply.last?.hasPrefix("OK") == true else { throw TestFailure("\(name): \(line) failed: \(reply)") }
    return reply
  }

  /// The channel's state line here, or nil (no daemon, no such channel).
  func state(_ channel: String) -> String? {
    guard let reply = try? RawClient(path: socket).request("GET \(channel)"), reply.last == "OK" else { return nil }
    return reply.first { $0.hasPrefix("STATE \(channel) ") }
  }

  /// Waits until the channel's state line here has each of `fields` (a nil value: the field is
  /// absent), polling `GET`; the line. On failure, says what it saw last.
  @discardableResult
  func waitFor(_ channel: String, _ fields: KeyValuePairs<String, String?>, timeout: Double = patience) throws
    -> String
  {
    var seen: String?
    let matched = waitUntil(timeout: timeout) {
      seen = state(channel)
      guard let line = seen else { return false }
      return fields.allSatisfy { field(line, $0.key) == $0.value }
    }
    guard matched, let seen else {
      throw TestFailure(
        "\(name): \(channel) never had \(fields.map { "\($0.key)=\($0.value ?? "(none)")" }) in \(timeout) s; "
          + "last: \(seen ?? "nothing")\n\(diagnostics)"
      )
    }
    return seen
  }

  /// The built `badgectl` with `arguments` against this machine's daemon; its output. Fails
  /// unless it succeeds.
  @discardableResult
  func ctl(_ arguments: [String]) throws -> String {
    let result = try badgectl(arguments, socket: socket)
    guard result.status == 0 else {
      throw TestFailure("\(name): badgectl \(arguments.joined(separator: " ")) failed: \(result.stderr)")
    }
    return result.stdout
  }

  /// Do-not-disturb here as `badgectl dnd status` says it: `on` or `off`.
  func dnd() throws -> String {
    let said = try ctl(["dnd", "status"])
    guard said.hasPrefix("dnd on") || said == "dnd off\n" else { throw TestFailure("\(name): dnd status: \(said)") }
    return said.hasPrefix("dnd on") ? "on" : "off"
  }

  /// A connection watching `patterns`, past its snapshot.
  func watcher(_ patterns: String) throws -> Watcher {
    let client = try RawClient(path: socket)
    let reply = try client.request("WATCH \(patterns)")
    guard reply.last == "OK watching" else { throw TestFailure("\(name): WATCH failed: \(reply)") }
    return Watcher(machine: name, client: client)
  }
}

/// A `WATCH` on a machine's socket, read until the line a test waits for.
final class Watcher {
  let machine: String
  private let client: RawClient
  private(set) var lines: [String] = []

  init(machine: String, client: RawClient) {
    self.machine = machine
    self.client = client
  }

  /// Reads events until one of `channel` has each of `fields`; the line. On failure, says
  /// what came.
  @discardableResult
  func waitFor(_ channel: String, _ fields: KeyValuePairs<String, String?>, timeout: Double = Machine.patience)
    throws -> String
  {
    let deadline = Date().addingTimeInterval(timeout)
    while let line = try? client.readLine(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
      lines.append(line)
      if line.hasPrefix("EVENT \(channel) ") && fields.allSatisfy({ field(line, $0.key) == $0.value }) {
        return line
      }
    }
    throw TestFailure(
      "\(machine)'s watcher never saw \(channel) with \(fields.map { "\($0.key)=\($0.value ?? "(none)")" }); it "
        + "saw:\n\(lines.joined(separator: "\n"))"
    )
  }
}

extension MeshNetwork {
  /// `desktop` sharing `mail` at `count`, and a machine of each of `mirrors` showing it fresh.
  func ownerAndMirrors(_ mirrors: [String], count: Int = 1) throws -> (Machine, [Machine]) {
    let desktop = try Machine("desktop", on: self, share: "mail")
    let others = try mirrors.map { try Machine($0, on: self) }
    try desktop.request("INCR mail \(count)")
    for mirror in others {
      try mirror.waitFor("mail", ["count": "\(count)", "total": "\(count)", "owner": "desktop", "stale": "0"])
    }
    return (desktop, others)
  }
}
