import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's mosquitto, started for one test on 127.0.0.1 and a free port: TLS with a CA and a
/// certificate made by openssl for this broker (for `localhost` only, so that a connection to
/// 127.0.0.1 fails the name check), a password file made by `mosquitto_passwd`, and an ACL with
/// one user per host and a read-only phone, as docs/MQTT.md advises.
final class Broker {
  let folder: TemporaryFolder
  private(set) var port = 0
  /// The CA that signed the broker's certificate, and one that signed nothing here.
  let caFile: String
  let otherCAFile: String
  private var child: Child?
  private let logPath: String

  /// The accounts: the hosts may read and write everything under `badged/ana/` (and Home
  /// Assistant's discovery), the phone only read.
  static let passwords = ["desktop": "desktop-secret", "laptop": "laptop-secret", "phone": "phone-secret"]

  /// More lines of mosquitto.conf (`max_queued_messages 5`).
  private let settings: [String]

  init(settings: [String] = []) throws {
    self.settings = settings
    folder = try TemporaryFolder()
    caFile = folder.file("ca.pem")
    otherCAFile = folder.file("other-ca.pem")
    logPath = folder.file("mosquitto.log")
    try makeCertificates()
    let passwd = folder.file("passwd")
    _ = FileManager.default.createFile(atPath: passwd, contents: nil)
    for (user, password) in Broker.passwords.sorted(by: { $0.key < $1.key }) {
      try Broker.check(run("mosquitto_passwd", ["-b", passwd, user, password]), "mosquitto_passwd")
    }
    _ = try folder.write(
      "acl",
      """
      user desktop
      topic readwrite badged/ana/#
      topic readwrite homeassistant/#
      user laptop
      topic readwrite badged/ana/#
      user phone
      topic read badged/ana/#

      """)
    try start()
  }

  deinit { stop() }

  var url: String { "mqtts://localhost:\(port)" }

  /// What the broker logged.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Starts the broker on a free port (another if a test took that one meanwhile), and waits
  /// until it accepts connections.
  func start(keepPort: Bool = false) throws {
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

  /// Stops the broker (SIGTERM); it keeps no state (`persistence false`).
  func stop() {
    child?.signal(SIGTERM)
    child?.wait()
    child = nil
  }

  /// Freezes and thaws the broker (SIGSTOP, SIGCONT): connections stay open but nothing is
  /// answered, as when the network in between stops carrying packets.
  func freeze() { child?.signal(SIGSTOP) }
  func thaw() { child?.signal(SIGCONT) }

  private func writeConfig() throws {
    _ = try folder.write(
      "mosquitto.conf",
      """
      user root
      per_listener_settings false
      allow_anonymous false
      password_file \(folder.file("passwd"))
      acl_file \(folder.file("acl"))
      persistence false
      log_type error
      log_type warning
      log_type notice
      log_type information
      listener \(port) 127.0.0.1
      cafile \(caFile)
      certfile \(folder.file("broker.pem"))
      keyfile \(folder.file("broker.key"))
      \(settings.joined(separator: "\n"))

      """)
  }

  /// A CA, the broker's key and certificate (for `localhost`), and a second CA; elliptic-curve
  /// keys, which openssl makes at once.
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
    let extensions = try folder.write("ext", "subjectAltName=DNS:localhost\n")
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
  func publish(_ topic: String, _ payload: String, as user: String = "desktop", retain: Bool = false) throws {
    let file = try folder.write("payload-\(UUID().uuidString.prefix(6))", payload)
    defer { try? FileManager.default.removeItem(atPath: file) }
    var arguments = [
      "--cafile", caFile, "-h", "localhost", "-p", String(port), "-u", user, "-P", Broker.passwords[user]!,
    ]
    arguments += ["-V", "mqttv5", "-q", "1", "-t", topic, "-f", file] + (retain ? ["-r"] : [])
    try Broker.check(run("mosquitto_pub", arguments), "mosquitto_pub")
  }

  /// A `mosquitto_sub` of `topics` as `user`, printing `topic|retained|payload` lines.
  func subscriber(_ topics: [String], as user: String = "desktop") throws -> Subscriber {
    var arguments = ["mosquitto_sub", "--cafile", caFile, "-h", "localhost", "-p", String(port), "-u", user]
    arguments += ["-P", Broker.passwords[user]!, "-V", "mqttv5", "-q", "1", "-F", "%t|%r|%p"]
    for topic in topics { arguments += ["-t", topic] }
    return try Subscriber(arguments, folder: folder)
  }
}

/// A `mosquitto_sub` running in the background; its lines read as they come.
final class Subscriber {
  private let child: Child
  private let path: String

  init(_ arguments: [String], folder: TemporaryFolder) throws {
    path = folder.file("sub-\(UUID().uuidString.prefix(6)).out")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    child = try Child(arguments, environment: Child.environment(), stdout: .file(path), stderr: .file(path))
  }

  deinit {
    child.signal(SIGTERM)
    child.wait()
  }

  var lines: [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// Waits for a line that `matching` accepts; whether one came within `timeout` seconds.
  func wait(timeout: Double = 10, for matching: (String) -> Bool) -> Bool {
    waitUntil(timeout: timeout) { lines.contains(where: matching) }
  }
}
