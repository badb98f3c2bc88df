import Foundation
import Testing

/// badged under the seccomp rules of `MemoryDenyWriteExecute=yes` (with no_new_privs), which
/// badged.service sets: the tool `mdwe-run` installs the same rules systemd installs, so this
/// runs without systemd.
@Suite struct HardeningTests {
  static var mdweRun: String { Binaries.folder.appendingPathComponent("mdwe-run").path }

  @Test func theRulesRefuseWritableExecutableMemory() throws {
    let result = try run(Self.mdweRun, ["--check"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func badgedServesReloadsNotifiesAndStopsUnderThem() throws {
    try Binaries.check()
    let folder = try TemporaryFolder()
    let socket = folder.file("badged.sock")
    let notify = try DatagramListener(path: folder.file("notify.sock"))
    var environment = ProcessInfo.processInfo.environment
    environment["NOTIFY_SOCKET"] = notify.path
    environment["WATCHDOG_USEC"] = "200000"
    environment.removeValue(forKey: "BADGED_SOCKET")
    let config = try folder.write("badged.conf", "[daemon]\nmax_label = 9\n")
    let daemon = try Child(
      [Self.mdweRun, Binaries.badged.path, "--socket", socket, "--state-dir", folder.file("state"),
       "--config", config, "--log-level", "debug"],
      environment: environment, stderr: .file(folder.file("badged.log")))

    _ = try notify.next { $0.contains("READY=1") }
    let watcher = try RawClient(path: socket)
    #expect(try watcher.request("WATCH mail") == ["STATE * dnd=0 left=0", "STATE mail count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0", "OK watching"])
    let client = try RawClient(path: socket)
    #expect(try field(client.request("SET mail 12")[0], "label") == "9+")
    #expect(try watcher.readLine()?.hasPrefix("EVENT mail count=12 ") == true)
    _ = try folder.write("badged.conf", "[daemon]\nmax_label = 99\n")
    #expect(try client.request("RELOAD") == ["OK reloaded"])
    #expect(try field(client.request("GET mail")[0], "label") == "12")
    _ = try notify.next { $0.contains("WATCHDOG=1") }
    daemon.signal(SIGTERM)
    _ = try notify.next { $0.contains("STOPPING=1") }
    #expect(daemon.wait() == 0, "\((try? String(contentsOfFile: folder.file("badged.log"), encoding: .utf8)) ?? "")")
  }
}
