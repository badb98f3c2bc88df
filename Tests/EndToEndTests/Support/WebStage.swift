import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A real badged and a real badged-web serving the checkout's page (web/) on a loopback port,
/// with a write token for the browser: what the Web tests drive headless Chromium against.
///
/// badged-web can be stopped and started again on the same port, tokens file and badged (a
/// restart the page's stream must resume across).
final class WebStage {
  let daemon: DaemonProcess
  let port: Int
  let configPath: String
  let token: String
  private var web: Child?
  private let logPath: String

  static var badgedWeb: URL { Binaries.folder.appendingPathComponent("badged-web") }

  /// - Parameter badgedConfig: badged's own config file's text, if any.
  init(badgedConfig: String? = nil) throws {
    guard FileManager.default.isExecutableFile(atPath: WebStage.badgedWeb.path) else {
      throw TestFailure("\(WebStage.badgedWeb.path) is missing: run 'swift build' before 'swift test' (make test does)")
    }
    daemon = try DaemonProcess(config: badgedConfig)
    port = try Broker.freePort()
    logPath = daemon.folder.file("badged-web.log")
    configPath = try daemon.folder.write(
      "web.conf",
      """
      [web]
      listen = 127.0.0.1:\(port)
      tokens_file = \(daemon.folder.file("web-tokens"))
      root = \(Repository.path("web"))
      keepalive = 1

      """)
    let made = try badgectl(["web", "token", "--name", "browser", "--config", configPath], socket: daemon.socket)
    // The token: 32 random bytes in base64url, 43 characters (design of issue 31).
    let token = made.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { word in
      word.count == 43 && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
    guard made.status == 0, let token else {
      throw TestFailure("badgectl web token failed: \(made.status) \(made.stdout) \(made.stderr)")
    }
    self.token = String(token)
    try startWeb()
  }

  deinit {
    stopWeb()
    daemon.stop()
  }

  /// The page's address.
  var base: String { "http://127.0.0.1:\(port)" }

  /// Starts badged-web and waits until it accepts connections.
  func startWeb() throws {
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    let child = try Child(
      [WebStage.badgedWeb.path, "--socket", daemon.socket, "--config", configPath], environment: Child.environment(),
      stderr: .file(logPath))
    web = child
    guard waitUntil({ Broker.accepts(port: self.port) || !child.isRunning }), child.isRunning else {
      throw TestFailure("badged-web did not start: \(log)")
    }
  }

  /// Stops badged-web (SIGTERM) and waits for it; its exit status.
  @discardableResult
  func stopWeb() -> Int32 {
    guard let web else { return 0 }
    self.web = nil
    web.signal(SIGTERM)
    return web.wait()
  }

  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Sends `requests` (protocol lines) to badged on one connection, each after the previous one's
  /// reply; the last reply.
  @discardableResult
  func send(_ requests: [String]) throws -> [String] {
    let client = try daemon.client()
    defer { client.close() }
    var reply: [String] = []
    for request in requests {
      reply = try client.request(request)
      guard reply.last?.hasPrefix("OK") == true else { throw TestFailure("\(request): \(reply)") }
    }
    return reply
  }

  /// A channel's count as badged has it.
  func count(_ channel: String) throws -> Int {
    let reply = try send(["GET \(channel)"])
    return Int(reply.compactMap { field($0, "count") }.first ?? "") ?? -1
  }
}

/// Tests/EndToEndTests/Fixtures/web/browser.py running one scenario in headless Chromium: its
/// result lines are read one by one, and a line ending in "?" waits for the test's answer.
final class BrowserScenario {
  private let child: Child
  private var input: LineInput
  private(set) var lines: [String] = []

  /// The venv with selenium that `scripts/install-deps --test` makes (`BADGED_WEB_VENV` names another).
  static var venv: String { ProcessInfo.processInfo.environment["BADGED_WEB_VENV"] ?? "/opt/badged-test/web" }

  init(_ scenario: String, stage: WebStage, arguments: [String] = []) throws {
    let python = BrowserScenario.venv + "/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python) else {
      throw TestFailure("selenium is not installed in \(BrowserScenario.venv): run scripts/install-deps --test")
    }
    let profile = stage.daemon.folder.file("chromium-\(scenario)")
    var environment = Child.environment(["SE_OFFLINE": "true", "BADGED_BROWSER_PROFILE": profile])
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    child = try Child(
      [
        python, Repository.path("Tests/EndToEndTests/Fixtures/web/browser.py"), stage.base, scenario, "--token",
        stage.token,
      ]
        + arguments, environment: environment, stdin: .pipe, stdout: .pipe,
      stderr: .file(stage.daemon.folder.file("browser.log")),
      newSession: true)
    input = LineInput(fd: child.output)
  }

  deinit {
    child.closeInput()
    child.signal(SIGTERM)
    child.wait()
  }

  /// The next result line.
  func next(timeout: Double = 60) throws -> String {
    guard let line = try input.next(timeout: timeout, what: "browser.py") else {
      throw TestFailure("browser.py ended; its lines: \(lines)")
    }
    lines.append(line)
    return line
  }

  /// Reads lines up to the question `prompt?`; the lines before it.
  @discardableResult
  func until(_ prompt: String, timeout: Double = 60) throws -> [String] {
    var before: [String] = []
    while true {
      let line = try next(timeout: timeout)
      if line == prompt + "?" { return before }
      before.append(line)
    }
  }

  /// Answers the question browser.py asked.
  func answer(_ text: String) throws {
    let bytes = Array((text + "\n").utf8)
    let n = bytes.withUnsafeBytes { write(child.input, $0.baseAddress, $0.count) }
    guard n == bytes.count else { throw TestFailure("writing to browser.py failed: errno \(errno)") }
  }

  /// Every line until browser.py ends, and its exit status.
  func rest(timeout: Double = 60) throws -> (lines: [String], status: Int32) {
    var rest: [String] = []
    while let line = try input.next(timeout: timeout, what: "browser.py") {
      lines.append(line)
      rest.append(line)
    }
    return (rest, child.wait())
  }

  /// The wall clock in milliseconds, as the page's `performance.timeOrigin + now()` counts it.
  static var nowMs: String { String(Date().timeIntervalSince1970 * 1000) }
}

/// A line's `key=value` word, as a number.
func number(_ line: String, _ key: String) -> Double? {
  line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Double($0.dropFirst(key.count + 1)) }
}
