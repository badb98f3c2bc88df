import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What the browser tests drive headless Chromium against: a `WebRig` (the built badged and
/// badged-web) serving the checkout's page (web/), with a write token made by the built
/// `badgectl web token`, as a user makes one.
final class WebStage {
  let rig: WebRig
  let token: String

  /// - Parameter badgedConfig: badged's own config file's text, if any.
  init(badgedConfig: String = "") throws {
    rig = try WebRig(keepalive: 1, badgedConfig: badgedConfig, root: Repository.path("web"))
    let made = try badgectl(["web", "token", "--name", "browser", "--config", rig.config], socket: rig.daemon.socket)
    // The token: 32 random bytes in base64url, 43 characters.
    let token = made.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { word in
      word.count == 43 && word.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
    guard made.status == 0, let token else {
      throw TestFailure("badgectl web token failed: \(made.status) \(made.stdout) \(made.stderr)")
    }
    self.token = String(token)
  }

  var daemon: DaemonProcess { rig.daemon }

  /// The page's address.
  var base: String { rig.url }

  func startWeb() throws { try rig.startWeb() }

  @discardableResult
  func stopWeb() -> Int32 { rig.stopWeb() }

  var log: String { rig.log }

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
