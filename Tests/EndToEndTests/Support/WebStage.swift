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
