import Foundation

/// Where the built `badged`, `badgectl` (with `badgectl-session`), `badged-mqtt`, `badged-sources` and
/// `badged-tray` and `badged-web` are: beside the test bundle, or in `$BADGED_BIN_DIR`. End-to-end tests run the real binaries, never a stand-in.
enum Binaries {
  static let folder: URL = {
    if let dir = ProcessInfo.processInfo.environment["BADGED_BIN_DIR"] {
      return URL(fileURLWithPath: dir)
    }
    // swift test runs .build/<triple>/debug/<package>PackageTests.xctest
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return exe.deletingLastPathComponent()
  }()

  static var badged: URL { folder.appendingPathComponent("badged") }
  static var badgectl: URL { folder.appendingPathComponent("badgectl") }
  static var badgectlSession: URL { folder.appendingPathComponent("badgectl-session") }
  static var badgedMQTT: URL { folder.appendingPathComponent("badged-mqtt") }
  static var badgedSources: URL { folder.appendingPathComponent("badged-sources") }
  static var badgedTray: URL { folder.appendingPathComponent("badged-tray") }
  static var badgedWeb: URL { folder.appendingPathComponent("badged-web") }

  /// Fails with a clear message when the binaries were not built (`make test` builds them).
  static func check() throws {
    for url in [badged, badgectl, badgectlSession, badgedMQTT, badgedSources, badgedTray, badgedWeb]
    where !FileManager.default.isExecutableFile(atPath: url.path) {
      throw TestFailure("\(url.path) is missing: run 'swift build' before 'swift test' (make test does)")
    }
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A private folder per test, removed when the test ends.
final class TemporaryFolder {
  let url: URL
  var path: String { url.path }

  init() throws {
    // Short paths: a Unix socket path must fit in 107 bytes.
    let base = URL(fileURLWithPath: "/tmp")
    url = base.appendingPathComponent("bdt-\(UUID().uuidString.prefix(8))")
    // Private, as badged's own socket folder is: it warns about a looser one.
    try FileManager.default.createDirectory(
      at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
  }

  func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws -> String {
    let path = file(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass.
func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if try condition() { return true }
    usleep(10_000)
  }
  return try condition()
}
