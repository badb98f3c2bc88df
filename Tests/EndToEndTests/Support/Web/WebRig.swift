import BadgeWeb
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What every badged-web test starts with: the built badged (its channels do not pulse, so
/// that only changes make events), the built badged-web on a free port of 127.0.0.1 with a
/// tokens file of the rig's folder, both on the rig's temporary folder.
final class WebRig {
  static let stillChannels = "[channel mail]\npulse_ms = 0\n[channel ci]\npulse_ms = 0\n"

  private(set) var daemon: DaemonProcess
  let port: Int
  let tokensFile: String
  private(set) var web: SourcesProcess

  /// Whether badged-web serves HTTPS, with a certificate of a CA of the rig's (curl trusts it).
  let tls: Bool

  /// - Parameters:
  ///   - extra: more lines of the `[web]` section (`allow_origins = …`).
  ///   - badgedConfig: badged's own config file's text (by default, channels that do not pulse).
  ///   - root: the page's folder (by default the rig's own folder, for tests of the files served;
  ///     the browser tests serve the checkout's web/).
  init(
    keepalive: Int = 15, tls: Bool = false, extra: String = "", badgedConfig: String = WebRig.stillChannels,
    root: String? = nil
  ) throws {
    daemon = try DaemonProcess(config: badgedConfig)
    self.badgedConfig = badgedConfig
    port = try Broker.freePort()
    self.tls = tls
    tokensFile = daemon.folder.file("web-tokens")
    var section =
      "[web]\nlisten = 127.0.0.1:\(port)\ntokens_file = \(tokensFile)\nroot = \(root ?? daemon.folder.path)\n"
      + "keepalive = \(keepalive)\n" + extra
    if tls {
      try TestCertificates.make(in: daemon.folder.path, names: ["IP:127.0.0.1"])
      section += "cert_file = \(daemon.folder.file("srv.pem"))\nkey_file = \(daemon.folder.file("srv.key"))\n"
    }
    config = try daemon.folder.write("web.conf", section)
    web = try WebRig.startWeb(daemon: daemon, config: config)
    try waitForFeed()
  }

  /// The config file badged-web reads (`badgectl web` reads the same).
  let config: String
  private let badgedConfig: String

  private static func startWeb(daemon: DaemonProcess, config: String) throws -> SourcesProcess {
    try SourcesProcess(
      folder: daemon.folder, config: config, socket: daemon.socket, executable: Binaries.badgedWeb.path)
  }

  /// Stops badged-web (SIGTERM; fails unless it exits 0), runs `meanwhile`, and starts it again
  /// on the same port and tokens file; returns once it has badged's snapshot.
  func restartWeb(meanwhile: () throws -> Void = {}) throws {
    let status = stopWeb()
    guard status == 0 else { throw TestFailure("badged-web exited \(status): \(web.log)") }
    try meanwhile()
    try startWeb()
  }

  /// Stops badged-web (SIGTERM) and waits for it; its exit status.
  func stopWeb() -> Int32 { web.stop() }

  /// Starts badged-web again on the same port and tokens file; returns once it has badged's
  /// snapshot.
  func startWeb() throws {
    web = try WebRig.startWeb(daemon: daemon, config: config)
    try waitForFeed()
  }

  /// badged-web's log (of its latest start).
  var log: String { web.log }

  var url: String { (tls ? "https" : "http") + "://127.0.0.1:\(port)" }

  /// What curl needs to reach the rig: the CA under TLS.
  var curlOptions: [String] { tls ? ["--cacert", daemon.folder.file("ca.pem")] : [] }

  /// Waits until badged-web serves and has badged's snapshot: its log says both.
  private func waitForFeed() throws {
    let up = waitUntil { web.log.contains("Connected to badged") || !web.isRunning }
    guard up, web.isRunning else { throw TestFailure("badged-web did not start: \(web.log)") }
  }

  /// A token badged-web accepts, with write access unless `readOnly`, written to the rig's
  /// tokens file as `badgectl web token` writes one.
  func token(readOnly: Bool = false) throws -> String {
    try issuedToken(readOnly: readOnly).token
  }

  /// A new token with its id (for `revoke`).
  func issuedToken(readOnly: Bool = false) throws -> TokenStore.IssuedToken {
    var store = TokenStore(path: tokensFile)
    let now = Int64(Date().timeIntervalSince1970)
    return try store.issueToken(level: readOnly ? .read : .write, name: "test", now: now)
  }

  /// A one-time code of the link `badgectl web link` prints.
  func linkCode(readOnly: Bool = false) throws -> String {
    var store = TokenStore(path: tokensFile)
    return try store.issueCode(
      level: readOnly ? .read : .write, name: "phone", now: Int64(Date().timeIntervalSince1970))
  }

  /// Takes the token with `id` out of the tokens file, as `badgectl web tokens revoke` does.
  func revoke(_ id: String) throws {
    var store = TokenStore(path: tokensFile)
    guard try store.revoke(id: id) else { throw TestFailure("no token \(id) to revoke") }
  }

  /// Stops badged (SIGTERM), runs `meanwhile`, and starts it again on the same socket and state.
  func restartDaemon(meanwhile: () throws -> Void = {}) throws {
    daemon.stop()
    try meanwhile()
    daemon = try DaemonProcess(folder: daemon.folder, socket: daemon.socket, config: badgedConfig)
  }

  /// Runs `badgectl` against the rig's daemon; fails unless it succeeds. Its output.
  @discardableResult
  func ctl(_ arguments: String...) throws -> String {
    let result = try badgectl(arguments, socket: daemon.socket)
    guard result.status == 0 else { throw TestFailure("badgectl \(arguments): \(result.stderr)") }
    return result.stdout
  }

  /// One request with curl: the status, the body and the headers (names lowercased).
  func request(
    _ method: String, _ path: String, token: String?, form: String? = nil, headers: [String] = []
  ) throws -> (status: Int, body: String, headers: [(name: String, value: String)]) {
    var arguments = ["curl", "-s", "-D", "-", "-X", method, "-w", "\n%{http_code}"] + curlOptions
    if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
    for header in headers { arguments += ["-H", header] }
    if let form { arguments += ["--data", form] }
    let result = try capture(arguments + [url + path], environment: Child.environment())
    guard let split = result.stdout.lastIndex(of: "\n"),
      let status = Int(result.stdout[result.stdout.index(after: split)...])
    else { throw TestFailure("curl \(path): \(result.stdout) \(result.stderr)") }
    // The headers (`-D -`) come first, then a blank line, then the body.
    let text = result.stdout[..<split]
    guard let blank = text.range(of: "\r\n\r\n") else { return (status, String(text), []) }
    let headers = text[..<blank.lowerBound].split(separator: "\r\n").dropFirst().compactMap {
      line -> (String, String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (line[..<colon].lowercased(), String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
    return (status, String(text[blank.upperBound...]), headers)
  }
}
