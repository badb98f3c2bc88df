import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An idle daemon sleeps: with a watcher connected and nothing to do, none of its server's
/// deadlines is set, so its one timer is not armed, and it uses no CPU time at all.
@Suite struct IdleDaemonTests {
  /// The session-bus bridge is off: without a bus (as in every test) it tries to connect again
  /// every 10 s, which is its own timer, not the server's.
  @Test func anIdleDaemonWithAWatcherUsesNoCPUTimeInTenSeconds() throws {
    let daemon = try DaemonProcess(config: "[bridge]\nenabled = no\n")
    let watcher = try daemon.client()
    #expect(try watcher.request("WATCH").last == "OK watching")
    let client = try daemon.client()
    #expect(try client.request("PING") == ["OK pong"])
    let before = try cpuTicks(daemon.pid)
    sleep(10)
    let used = try cpuTicks(daemon.pid) - before
    #expect(try client.request("PING") == ["OK pong"], "still serving")
    #expect(used == 0, "\(used) clock ticks of CPU time while idle")
  }
}
