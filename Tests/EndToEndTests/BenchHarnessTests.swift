import Foundation
import Testing

/// The benchmark's generator, badged-bench, against the real daemon: every scenario counts
/// exactly, a server that acknowledges without counting is caught, and bad flags are refused.
/// It asserts no speed (BENCHMARKS.md holds the figures).
@Suite struct BenchHarnessTests {
  static let neverSync = "[daemon]\nsync = never\n"

  /// Runs badged-bench with `arguments`; its result and the one JSON line it printed.
  private func bench(_ arguments: [String]) throws -> (CtlResult, [String: Any]) {
    let result = try run(Binaries.folder.appendingPathComponent("badged-bench").path, arguments)
    let json =
      result.stdout.isEmpty
      ? [:] : (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:])
    return (result, json)
  }

  private func count(_ daemon: DaemonProcess, _ channel: String) throws -> Int? {
    try field(daemon.client().request("GET \(channel)")[0], "count").flatMap { Int($0) }
  }

  @Test func throughputLeavesExactlyTheAcknowledgedIncrements() throws {
    let daemon = try DaemonProcess(config: Self.neverSync)
    _ = try daemon.client().request("INCR bench1 7")
    let (result, json) = try bench([
      "--socket", daemon.socket, "--clients", "5", "--pipeline", "4", "--requests", "200", "--channels", "3",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["requests"] as? Int == 200)
    #expect(json["verified"] as? Bool == true)
    #expect(json["generator_cpu"] is Double)
    // Client i sends its 40 INCRs round the 3 channels starting at channel i.
    var expected = [0, 7, 0]
    for client in 0..<5 { for k in 0..<40 { expected[(client + k) % 3] += 1 } }
    for channel in 0..<3 { #expect(try count(daemon, "bench\(channel)") == expected[channel]) }
  }

  /// `--command incr-id`: every INCR with an id of its own, so none is taken for a retry, and
  /// the counts rise by exactly the number sent.
  @Test func incrementsWithIdsAreEachCountedOnce() throws {
    let daemon = try DaemonProcess(config: Self.neverSync)
    let (result, json) = try bench([
      "--socket", daemon.socket, "--clients", "4", "--pipeline", "5", "--requests", "200", "--channels", "2",
      "--threads", "2", "--command", "incr-id",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["command"] as? String == "incr-id" && json["verified"] as? Bool == true)
    #expect(try (count(daemon, "bench0") ?? 0) + (count(daemon, "bench1") ?? 0) == 200)
  }

  @Test func fanOutReachesEveryWatcherWithEveryChange() throws {
    let daemon = try DaemonProcess(config: Self.neverSync)
    let (result, json) = try bench([
      "--socket", daemon.socket, "--mode", "fanout", "--watchers", "8", "--changes", "12",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["watchers"] as? Int == 8)
    #expect(json["changes"] as? Int == 12)
    #expect(json["p999_us"] != nil)
    #expect(try count(daemon, "bench") == 12)
  }

  @Test func aBurstUnderFanOutCountsEveryIncrementAndPings() throws {
    let daemon = try DaemonProcess(config: Self.neverSync)
    let (result, json) = try bench([
      "--socket", daemon.socket, "--mode", "fanout-load", "--watchers", "6", "--requests", "3000", "--pipeline", "32",
      "--ping-interval-ms", "1",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["requests"] as? Int == 3000)
    #expect((json["pings"] as? Int ?? 0) >= 1)
    #expect(try count(daemon, "bench") == 3000)
  }

  @Test func aServerThatAcknowledgesWithoutCountingFailsTheRun() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("echo.sock")
    let echo = try Child(
      [Binaries.folder.appendingPathComponent("badged-bench").path, "--serve-echo", "--socket", socket],
      environment: Child.environment())
    defer {
      echo.signal(SIGTERM)
      echo.wait()
    }
    #expect(waitUntil { RawClient.canConnect(socket) })
    let (result, _) = try bench(["--socket", socket, "--clients", "2", "--requests", "100"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("count mismatch: 100 increments acknowledged, the server's counts rose by 0"))
    // Without the check the echo server is a valid target: the generator's ceiling.
    let (unchecked, json) = try bench(["--socket", socket, "--clients", "2", "--requests", "100", "--no-verify"])
    #expect(unchecked.status == 0, "\(unchecked.stderr)")
    #expect(json["verified"] as? Bool == false)
  }

  @Test func startUpTimesTheFirstAnswerAndStopsTheServer() throws {
    let folder = try TemporaryFolder()
    let socket = folder.file("badged.sock")
    let (result, json) = try bench([
      "--socket", socket, "--mode", "startup", "--", Binaries.badged.path, "--socket", socket, "--state-dir",
      folder.file("state"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["first_answer_ms"] != nil)
    #expect(!FileManager.default.fileExists(atPath: socket), "the daemon was stopped and removed its socket")
  }

  @Test(arguments: [
    (["--clients", "0"], "bad number for --clients: 0"),
    (["--mode", "sprint"], "unknown mode sprint"),
    (["--protocol", "memcached"], "unknown protocol memcached"),
    (["--clients", "2", "--threads", "3"], "--threads cannot exceed --clients"),
    (["--mode", "startup"], "startup needs a server command after --"),
    (["--command", "publish"], "--command publish is Redis's"),
    (["--command", "incr-id", "--protocol", "redis"], "--command incr-id is badged's"),
    (["--command", "decr"], "unknown command decr"),
    (["--clients"], "missing value for --clients"),
    (["--bogus", "1"], "unknown option --bogus"),
    (["--patterns", "0"], "bad number for --patterns: 0"),
    (["--protocol", "redis", "--mode", "hold", "--patterns", "4"], "--patterns is badged's (WATCH)"),
    (["--mode", "reply", "--hold-seconds", "-1"], "bad number for --hold-seconds: -1"),
    (["--mode", "reply", "--server-pid", "0"], "bad number for --server-pid: 0"),
    (["--protocol", "redis", "--mode", "reply"], "--mode reply is badged's"),
  ])
  func badOptionsAreRefusedWithUsage(extra: [String], message: String) throws {
    let (result, _) = try bench(["--socket", "/nonexistent/bench.sock"] + extra)
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("badged-bench: \(message)\nusage: badged-bench"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func aLongReplyIsReadToItsStatusLineBesidePings() throws {
    let daemon = try DaemonProcess(config: Self.neverSync)
    _ = try bench([
      "--socket", daemon.socket, "--clients", "1", "--requests", "3000", "--pipeline", "50", "--channels", "3000",
    ])
    let (result, json) = try bench([
      "--socket", daemon.socket, "--mode", "reply", "--request", "LIST", "--server-pid", String(daemon.pid),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(json["reply_lines"] as? Int == 3001)
    #expect(json["status"] as? String == "OK")
    #expect((json["reply_bytes"] as? Int ?? 0) > 64 << 10, "more than a chunk")
    #expect((json["hwm_kb"] as? Int ?? 0) > 0)
    #expect(json["first_byte_seconds"] != nil)
    let (refused, _) = try bench(["--socket", daemon.socket, "--mode", "reply", "--request", "LIST all"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("reply: ERR bad-arguments"), "\(refused.stderr)")
  }

  @Test func aMissingSocketFailsTheRun() throws {
    let (result, _) = try bench(["--socket", "/nonexistent/bench.sock"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot connect to /nonexistent/bench.sock"))
  }
}
