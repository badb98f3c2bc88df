import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's mosquitto, started for one test on 127.0.0.1 and a free port: TLS with a CA and a
/// certificate made by openssl for this broker (for `localhost` only, so that a connection to
/// 127.0.0.1 fails the name check), a password file made by `mosquitto_passwd`, and the ACL and
/// configuration users copy from contrib/mosquitto/ (each machine writing only its own subtree,
/// a read-only phone, Home Assistant), with what only a test needs added.
///
/// Or, given a `Placement`, in a network namespace of its own (`MeshNetwork`), listening on that
/// namespace's address alone, with a certificate that names the address.
final class Broker {
  /// Where a broker of a `MeshNetwork` runs: its namespace, the address it listens on there,
  /// which its certificate names, and a fixed port (the namespace is the run's own).
  struct Placement {
    let namespace: String
    let address: String
    let port = 8883
  }

  let folder: TemporaryFolder
  let placement: Placement?
  private(set) var port = 0
  /// The CA that signed the broker's certificate, and one that signed nothing here.
  let caFile: String
  let otherCAFile: String
  private var child: Child?
  private let logPath: String

  /// The accounts, as contrib/mosquitto/acl grants them: the hosts may read everything under
  /// `badged/ana/` and write their own subtree, commands and do-not-disturb changes (desktop
  /// also Home Assistant's discovery), the phone only read; Home Assistant reads both and
  /// writes only the do-not-disturb switch's commands and its own status.
  static let passwords = [
    "desktop": "desktop-secret", "laptop": "laptop-secret", "server": "server-secret", "phone": "phone-secret",
    "homeassistant": "homeassistant-secret",
  ]

  /// More lines of mosquitto.conf (`max_queued_messages 5`).
  private let settings: [String]

  /// Whether the broker keeps its retained messages and sessions across a restart (saved in its
  /// folder when it stops, read when it starts); read by the next `start`.
  var persistence = false

  /// `homeAssistantHosts`: machines besides the desktop that publish Home Assistant's discovery.
  init(placement: Placement? = nil, settings: [String] = [], homeAssistantHosts: [String] = []) throws {
    self.settings = settings
    folder = try TemporaryFolder()
    try FileManager.default.createDirectory(atPath: folder.file("persisted"), withIntermediateDirectories: true)
    self.placement = placement
    caFile = folder.file("ca.pem")
    otherCAFile = folder.file("other-ca.pem")
    logPath = folder.file("mosquitto.log")
    try makeCertificates()
    let passwd = folder.file("passwd")
    _ = FileManager.default.createFile(atPath: passwd, contents: nil)
    for (user, password) in Broker.passwords.sorted(by: { $0.key < $1.key }) {
      try Broker.check(run("mosquitto_passwd", ["-b", passwd, user, password]), "mosquitto_passwd")
    }
    _ = try folder.write("acl", try Broker.acl(homeAssistantHosts: homeAssistantHosts))
    try start()
  }

  deinit { stop() }

  /// The name the clients connect to, which the certificate names.
  var hostName: String { placement?.address ?? "localhost" }

  var url: String { "mqtts://\(hostName):\(port)" }

  /// What runs a program in the broker's namespace (nothing when it has none).
  var launcher: [String] { placement.map { ["ip", "netns", "exec", $0.namespace] } ?? [] }

  /// What the broker logged.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Starts the broker on a free port (another if a test took that one meanwhile), and waits
  /// until it accepts connections.
  func start(keepPort: Bool = false) throws {
    if let placement {
      try start(in: placement)
      return
    }
    for _ in 0..<5 {
      if !keepPort || port == 0 { port = try Broker.freePort() }
      try writeConfig()
      let child = try Child(
        ["/usr/sbin/mosquitto", "-c", folder.file("mosquitto.conf")], environment: Child.environment(),
        stderr: .file(logPath))
      if waitUntil(timeout: 5, { Broker.accepts(port: port) || !child.isRunning }), child.isRunning {
        self.child = child
        return
      }
      child.signal(SIGKILL)
      child.wait()
    }
    throw TestFailure("mosquitto did not start: \(log)")
  }

  /// Starts the broker in its namespace, and waits until it says it runs (after its listener
  /// is open): nothing outside the namespace can connect to ask.
  private func start(in placement: Placement) throws {
    port = placement.port
    try writeConfig()
    let logged = log.utf8.count
    let child = try Child(
      launcher + ["/usr/sbin/mosquitto", "-c", folder.file("mosquitto.conf")], environment: Child.environment(),
      stderr: .file(logPath))
    let running = waitUntil(timeout: 10) {
      String(decoding: Array(log.utf8.dropFirst(logged)), as: UTF8.self).contains(" running") || !child.isRunning
    }
    guard running, child.isRunning else {
      child.signal(SIGKILL)
      child.wait()
      throw TestFailure("mosquitto did not start in \(placement.namespace): \(log)")
    }
    self.child = child
  }

  /// Stops the broker (SIGTERM); it keeps no state unless `persistence` is on.
  func stop() {
    child?.signal(SIGTERM)
    child?.wait()
    child = nil
  }

  /// Freezes and thaws the broker (SIGSTOP, SIGCONT): connections stay open but nothing is
  /// answered, as when the network in between stops carrying packets.
  func freeze() { child?.signal(SIGSTOP) }
  func thaw() { child?.signal(SIGCONT) }

  /// contrib/mosquitto/acl for the prefix `badged/ana`, with a third machine, `server`, added
  /// as the file says to add one (a copy of the laptop's block), and Home Assistant's discovery
  /// for `homeAssistantHosts` too (mosquitto adds a user's later lines to its earlier block).
  static func acl(homeAssistantHosts: [String]) throws -> String {
    let template = try String(contentsOfFile: Repository.path("contrib/mosquitto/acl"), encoding: .utf8)
    let acl = template.replacingOccurrences(of: "@PREFIX@", with: "badged/ana")
    guard let start = acl.range(of: "\nuser laptop\n"),
      let end = acl.range(of: "\n\n", range: start.upperBound..<acl.endIndex)
    else { throw TestFailure("contrib/mosquitto/acl has no laptop block") }
    let server = acl[start.lowerBound..<end.lowerBound].replacingOccurrences(of: "user laptop", with: "user server")
    let discovery = homeAssistantHosts.map { "\nuser \($0)\ntopic readwrite homeassistant/#\n" }
    return ([acl, server, "\n"] + discovery).joined()
  }

  /// contrib/mosquitto/badged.conf with this broker's files and listener, and what a test adds
  /// before it (its own user, no persistence, every log line) and after (the CA, `settings`).
  private func writeConfig() throws {
    var conf = try String(contentsOfFile: Repository.path("contrib/mosquitto/badged.conf"), encoding: .utf8)
    for (from, to) in [
      ("/etc/mosquitto/passwd", folder.file("passwd")), ("/etc/mosquitto/acl", folder.file("acl")),
      ("/etc/mosquitto/certs/broker.pem", folder.file("broker.pem")),
      ("/etc/mosquitto/certs/broker.key", folder.file("broker.key")),
      ("\nlistener 8883\n", "\nlistener \(port) \(placement?.address ?? "127.0.0.1")\n"),
    ] {
      guard conf.contains(from) else { throw TestFailure("contrib/mosquitto/badged.conf has no \(from)") }
      conf = conf.replacingOccurrences(of: from, with: to)
    }
    _ = try folder.write(
      "mosquitto.conf",
      """
      user root
      persistence \(persistence)
      persistence_location \(folder.file("persisted"))/
      log_type error
      log_type warning
      log_type notice
      log_type information
      \(conf)cafile \(caFile)
      \(settings.joined(separator: "\n"))

      """)
  }

  /// A CA, the broker's key and certificate (for `localhost`, and its namespace's address when it
  /// has one), and a second CA; elliptic-curve keys, which openssl makes at once.
  private func makeCertificates() throws {
    let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for (name, subject) in [("ca", "/CN=badged test CA"), ("other-ca", "/CN=another CA")] {
      try Broker.check(
        run(
          "openssl",
          ["req", "-x509"] + curve + [
            "-days", "2", "-subj", subject, "-keyout", folder.file("\(name).key"), "-out", folder.file("\(name).pem"),
          ]),
        "openssl req")
    }
    try Broker.check(
      run(
        "openssl",
        ["req"] + curve + [
          "-subj", "/CN=localhost", "-keyout", folder.file("broker.key"), "-out", folder.file("broker.csr"),
        ]),
      "openssl req")
    let names = ["DNS:localhost"] + (placement.map { ["IP:\($0.address)"] } ?? [])
    let extensions = try folder.write("ext", "subjectAltName=\(names.joined(separator: ","))\n")
    try Broker.check(
      run(
        "openssl",
        [
          "x509", "-req", "-in", folder.file("broker.csr"), "-CA", caFile, "-CAkey", folder.file("ca.key"),
          "-CAcreateserial",
          "-days", "2", "-extfile", extensions, "-out", folder.file("broker.pem"),
        ]),
      "openssl x509")
  }

  private static func check(_ result: CtlResult, _ what: String) throws {
    guard result.status == 0 else { throw TestFailure("\(what) failed: \(result.stderr)") }
  }

  /// A port nothing listens on now: the kernel's pick for a socket bound to port 0.
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw TestFailure("bind failed: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port`.
  static func accepts(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// `mosquitto_pub` as `user` (QoS 1); the payload goes through a file, whatever its size.
  /// `launcher` runs it elsewhere (in another machine's namespace); without `check`, a failed
  /// publish is returned rather than thrown.
  @discardableResult
  func publish(
    _ topic: String, _ payload: String, as user: String = "desktop", retain: Bool = false, launcher: [String]? = nil,
    check: Bool = true
  ) throws -> CtlResult {
    let file = try folder.write("payload-\(UUID().uuidString.prefix(6))", payload)
    defer { try? FileManager.default.removeItem(atPath: file) }
    var arguments = [
      "mosquitto_pub", "--cafile", caFile, "-h", hostName, "-p", String(port), "-u", user, "-P",
      Broker.passwords[user]!,
    ]
    arguments += ["-V", "mqttv5", "-q", "1", "-t", topic, "-f", file] + (retain ? ["-r"] : [])
    let command = (launcher ?? self.launcher) + arguments
    let result = try run(command[0], Array(command.dropFirst()))
    if check { try Broker.check(result, "mosquitto_pub") }
    return result
  }

  /// A `mosquitto_sub` of `topics` as `user`, printing `topic|retained|payload` lines.
  ///
  /// It returns once it is subscribed: it also subscribes, last, to a marker topic of its own,
  /// which is published until it comes back (mosquitto_sub says nothing when the broker took its
  /// subscriptions, and one that is not yet subscribed would be sent a message published meanwhile
  /// as the retained one, or not at all). The marker's lines are not among its `lines`.
  func subscriber(_ topics: [String], as user: String = "desktop", launcher: [String]? = nil) throws -> Subscriber {
    var arguments = (launcher ?? self.launcher) + ["mosquitto_sub", "--cafile", caFile, "-h", hostName]
    arguments += ["-p", String(port), "-u", user]
    arguments += ["-P", Broker.passwords[user]!, "-V", "mqttv5", "-q", "1", "-F", "%t|%r|%p"]
    // (Under desktop's own subtree, which the ACL lets it write.)
    let marker = "badged/ana/host/desktop/subscribed/\(UUID().uuidString.prefix(8))"
    for topic in topics + [marker] { arguments += ["-t", topic] }
    let subscriber = try Subscriber(arguments, folder: folder, marker: marker)
    let subscribed = waitUntil(timeout: 10) {
      _ = try? publish(marker, "subscribed", launcher: launcher, check: false)
      return subscriber.allLines.contains { $0.hasPrefix(marker + "|") }
    }
    guard subscribed else { throw TestFailure("mosquitto_sub \(topics) did not subscribe within 10 s") }
    return subscriber
  }
}

/// A `mosquitto_sub` running in the background; its lines read as they come.
final class Subscriber {
  private let child: Child
  private let path: String
  /// The topic `Broker.subscriber` confirms the subscription with, whose lines `lines` leaves out.
  private let marker: String

  init(_ arguments: [String], folder: TemporaryFolder, marker: String) throws {
    path = folder.file("sub-\(UUID().uuidString.prefix(6)).out")
    self.marker = marker
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    child = try Child(arguments, environment: Child.environment(), stdout: .file(path), stderr: .file(path))
  }

  deinit {
    child.signal(SIGTERM)
    child.wait()
  }

  /// What it printed, but the marker's lines.
  var lines: [String] { allLines.filter { !$0.hasPrefix(marker + "|") } }

  var allLines: [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// Waits for a line that `matching` accepts; whether one came within `timeout` seconds.
  func wait(timeout: Double = 10, for matching: (String) -> Bool) -> Bool {
    waitUntil(timeout: timeout) { lines.contains(where: matching) }
  }
}
