import Foundation
import Testing

/// The sd_notify conversation with a service manager, seen from a datagram socket standing in
/// for systemd's NOTIFY_SOCKET.
@Suite struct ServiceNotifyTests {
  /// A daemon whose NOTIFY_SOCKET is a socket the test reads.
  private func start(environment: [String: String] = [:], config: String? = nil) throws -> (
    DaemonProcess, DatagramListener
  ) {
    let folder = try TemporaryFolder()
    let notify = try DatagramListener(path: folder.file("notify.sock"))
    var environment = environment
    environment["NOTIFY_SOCKET"] = notify.path
    let daemon = try DaemonProcess(folder: folder, config: config, environment: environment, waitForSocket: false)
    return (daemon, notify)
  }

  @Test func readyComesOnlyOnceTheSocketAnswersWithTheFirstStatus() throws {
    let (daemon, notify) = try start()
    let ready = try notify.next { $0.contains("READY=1") }
    // No retry: when READY=1 arrives, the socket must already be bound and served.
    let client = try daemon.client()
    #expect(try client.request("PING") == ["OK pong"])
    #expect(ready.split(separator: "\n").contains("STATUS=0 channels, 0 clients, 0 watchers"), "\(ready)")
    #expect(notify.received.filter { $0.contains("READY=1") }.count == 1)
  }

  @Test func theStatusLineFollowsChannelsClientsAndWatchers() throws {
    let (daemon, notify) = try start()
    _ = try notify.next { $0.contains("READY=1") }
    let watcher = try daemon.client()
    _ = try watcher.request("WATCH")
    let writer = try daemon.client()
    _ = try writer.request("INCR mail")
    _ = try writer.request("INCR ci")
    _ = try notify.next(timeout: 5) { $0 == "STATUS=2 channels, 2 clients, 1 watcher" }
    watcher.close()
    _ = try notify.next(timeout: 5) { $0 == "STATUS=2 channels, 1 client, 0 watchers" }
  }

  @Test func theStatusLineIsSentAtMostOnceASecond() throws {
    let (daemon, notify) = try start()
    _ = try notify.next { $0.contains("READY=1") }
    // 1.5 s of clients coming and going, each one a change of the status line.
    let end = Date().addingTimeInterval(1.5)
    var count = 0
    while Date() < end {
      _ = try daemon.client().request("SET c\(count) 1")
      count += 1
      usleep(20_000)
    }
    while notify.next(timeout: 1.2) != nil {}
    let statuses = notify.received.filter { $0.hasPrefix("STATUS=") }
    #expect(count > 20)
    // One a second while it changes (about 1.5 s + the last one): never one per change.
    #expect(statuses.count >= 1 && statuses.count <= 3, "\(statuses)")
    #expect(statuses.last == "STATUS=\(count) channels, 0 clients, 0 watchers")
  }

  @Test func watchdogPingsComeAtHalfTheInterval() throws {
    let (daemon, notify) = try start(environment: ["WATCHDOG_USEC": "200000"])
    defer { withExtendedLifetime(daemon) {} }
    _ = try notify.next { $0.contains("READY=1") }
    let start = Date()
    var pings = 0
    while Date().timeIntervalSince(start) < 1 {
      if let message = notify.next(timeout: 0.2), message.contains("WATCHDOG=1") { pings += 1 }
    }
    // Every 100 to 150 ms: 6 to 10 in a second.
    #expect(pings >= 4 && pings <= 12, "\(pings) pings")
  }

  @Test func noWatchdogPingsWithoutWatchdogUsec() throws {
    let (daemon, notify) = try start()
    defer { withExtendedLifetime(daemon) {} }
    _ = try notify.next { $0.contains("READY=1") }
    while notify.next(timeout: 0.6) != nil {}
    #expect(!notify.received.contains { $0.contains("WATCHDOG=1") })
  }

  @Test func sighupSaysReloadingThenReadyAndSigtermSaysStopping() throws {
    let (daemon, notify) = try start(config: "[daemon]\nmax_label = 9\n")
    _ = try notify.next { $0.contains("READY=1") }
    kill(daemon.pid, SIGHUP)
    let reloading = try notify.next { $0.contains("RELOADING=1") }
    #expect(
      reloading.split(separator: "\n").contains { $0.hasPrefix("MONOTONIC_USEC=") && UInt64($0.dropFirst(15)) != nil })
    _ = try notify.next { $0.contains("READY=1") }
    kill(daemon.pid, SIGTERM)
    _ = try notify.next { $0.contains("STOPPING=1") }
    #expect(daemon.stop() == 0)
  }

  @Test func reloadOverTheSocketAlsoSaysReloadingThenReady() throws {
    let (daemon, notify) = try start()
    _ = try notify.next { $0.contains("READY=1") }
    #expect(try daemon.client().request("RELOAD") == ["OK reloaded"])
    _ = try notify.next { $0.contains("RELOADING=1") }
    _ = try notify.next { $0.contains("READY=1") }
  }
}
