import Foundation

/// A private session bus with `badged` on it, ready for LauncherEntry signals: the daemon owns
/// `com.canonical.Unity`, which it asks for only after its matches, so they are in place.
struct BridgeFixture {
  let folder: TemporaryFolder
  let bus: SessionBus
  let daemon: DaemonProcess

  static let dockName = "com.canonical.Unity"

  init(config: String? = nil, waitForName: Bool = true) throws {
    folder = try TemporaryFolder()
    bus = try SessionBus(folder: folder)
    daemon = try DaemonProcess(
      folder: folder, config: config, arguments: ["--log-level", "debug"], environment: bus.environment)
    if waitForName { try bus.waitForOwner(of: Self.dockName, pid: daemon.pid) }
  }

  /// Ends `app` and waits until the bus has seen it go: the bus sends `NameOwnerChanged` to
  /// the daemon before it answers the question, so whatever is sent next comes after it.
  func leave(_ app: BusPeer) throws {
    app.quit()
    let check = try BusPeer(bus: bus)
    guard try waitUntil({ try check.send("owner \(app.uniqueName)") == "owner none" }) else {
      throw TestFailure("\(app.uniqueName) is still on the bus")
    }
  }

  /// A connection that watches `patterns`, past its snapshot.
  func watcher(_ patterns: String) throws -> RawClient {
    let client = try daemon.client()
    let reply = try client.request("WATCH \(patterns)")
    guard reply.last == "OK watching" else { throw TestFailure("WATCH failed: \(reply)") }
    return client
  }
}

extension RawClient {
  /// The next event's `channel count=N`.
  func nextEvent() throws -> String {
    guard let line = try readLine() else { throw TestFailure("no event") }
    return line.split(separator: " ").dropFirst().prefix(2).joined(separator: " ")
  }
}
