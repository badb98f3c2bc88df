import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Floods of connections: the client limit, running out of file descriptors, other users.
@Suite struct ConnectionAbuseTests {
  @Test func twoThousandConnectionsAtOnce() throws {
    let daemon = try DaemonProcess()
    let good = try daemon.client()
    #expect(try good.request("INCR good")[0].hasPrefix("STATE good count=1 "))
    let flood = try (0..<2000).map { _ in try daemon.client() }
    for client in flood { try? client.send("PING\n") }
    var answers: [String: Int] = [:]
    for client in flood {
      let line = try client.readLine() ?? "closed"
      answers[line.hasPrefix("ERR busy ") ? "busy" : line, default: 0] += 1
    }
    // The good client holds one of the 1024 places.
    #expect(answers == ["OK pong": 1023, "busy": 977])
    #expect(try good.request("INCR good")[0].hasPrefix("STATE good count=2 "), "existing clients unaffected")
    #expect(daemon.log.components(separatedBy: "refusing new connections").count - 1 == 1, "logged once: \(daemon.log)")
    // The rest are counted, and the count is logged when the interval ends: every refusal is
    // in the log, in one line or in a count.
    let counted = "socket: connections refused past [limits] max_clients: "
    #expect(waitUntil(timeout: 30) { daemon.log.contains(counted) }, "\(daemon.log)")
    #expect(Self.refusals(in: daemon.log, counted: counted) == 977, "\(daemon.log)")
    flood.forEach { $0.close() }
    #expect(waitUntil { (try? daemon.client().request("PING")) == ["OK pong"] }, "room again once they left")
    #expect(try count("good", daemon) == 2)
    try expectHealthy(daemon, peakMiB: 64, "2,000 connections")
  }

  /// The refusals past `max_clients` a log tells of: a line each that went out, and the number
  /// in each count of those dropped (`… (N more like this …)` and the interval's own line).
  static func refusals(in log: String, counted: String) -> Int {
    var total = 0
    for line in log.split(separator: "\n") {
      if line.contains("refusing new connections") { total += 1 }
      guard line.contains(counted) || line.contains("refusing new connections"),
        let more = line.range(of: " more like this")
      else { continue }
      let digits = line[..<more.lowerBound].reversed().prefix { $0.isNumber }
      total += Int(String(digits.reversed())) ?? 0
    }
    return total
  }

  @Test func aLowerClientLimitFromTheConfig() throws {
    let daemon = try DaemonProcess(config: "[limits]\nmax_clients = 2\n")
    // The start-up probe's connection may not be gone yet: admitted means answered.
    func admitted() throws -> RawClient {
      var client: RawClient?
      _ = waitUntil {
        client = try? daemon.client()
        return (try? client?.request("PING")) == ["OK pong"]
      }
      return try #require(client)
    }
    let first = try admitted()
    let second = try admitted()
    let third = try daemon.client()
    #expect(try third.readLine()?.hasPrefix("ERR busy 2 clients are connected already") == true)
    #expect(try third.readLine() == nil, "closed")
    #expect(try first.request("PING") == ["OK pong"])
    #expect(try second.request("PING") == ["OK pong"])
  }

  @Test func runningOutOfFileDescriptorsPausesAcceptingWithOneLogLine() throws {
    let daemon = try DaemonProcess(wrapper: ["/usr/bin/prlimit", "--nofile=64:64", "--"])
    let good = try daemon.client()
    #expect(try good.request("INCR good")[0].hasPrefix("STATE good count=1 "))
    // More connections than descriptors: the rest wait in the listen queue, each with its
    // request already sent.
    let flood = try (0..<100).map { _ in try daemon.client() }
    for client in flood { try client.send("INCR c\n") }
    #expect(waitUntil { daemon.log.contains("pausing accepting") }, "\(daemon.log)")
    let before = try cpuTicks(daemon.pid)
    usleep(3_000_000)
    let used = try cpuTicks(daemon.pid) - before
    print("abuse: EMFILE: \(used) CPU ticks in 3 s")
    #expect(used <= 20, "a paused listener costs nothing; a spinning one about 300 ticks")
    #expect(try good.request("INCR good")[0].hasPrefix("STATE good count=2 "), "connected clients are served meanwhile")
    // As connections leave, the waiting ones are taken in turn; each request counts once.
    for client in flood {
      #expect(try client.readReply(timeout: 15)[0].hasPrefix("STATE c count="))
      client.close()
    }
    #expect(try count("c", daemon) == 100)
    #expect(daemon.log.components(separatedBy: "pausing accepting").count - 1 == 1, "\(daemon.log)")
    #expect(daemon.log.contains("EMFILE"))
    try expectHealthy(daemon, peakMiB: 32, "EMFILE")
  }

  @Test func anotherUserIsDeniedThroughALoosenedSocket() throws {
    let daemon = try DaemonProcess()
    let good = try daemon.client()
    #expect(try good.request("INCR mail")[0].hasPrefix("STATE mail count=1 "))
    // What a wrong SocketMode= would do.
    chmod(daemon.folder.path, 0o755)
    chmod(daemon.socket, 0o666)
    // The installed badgectl: nobody may not reach the checkout's.
    let installed = try InstalledBinaries.copy()
    let intruder = try run(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", installed.path("badgectl"), "incr", "mail", "5"],
      environment: installed.environment.merging(["BADGED_SOCKET": daemon.socket]) { $1 })
    #expect(intruder.status == 1, "\(intruder)")
    #expect(intruder.stderr.contains("Only the user badged runs as may connect"), "\(intruder.stderr)")
    #expect(daemon.log.contains("Refused a connection from pid "), "\(daemon.log)")
    #expect(daemon.log.contains(", uid 65534: only this user may connect."))
    #expect(try good.request("GET mail")[0].hasPrefix("STATE mail count=1 "), "nothing changed")
    try expectHealthy(daemon, peakMiB: 32, "another user")
  }

  @Test func aLooseSocketFolderIsReportedAtStart() throws {
    let folder = try TemporaryFolder()
    chmod(folder.path, 0o755)
    let daemon = try DaemonProcess(folder: folder)
    #expect(waitUntil { daemon.log.contains("has mode 0755, looser than 0700") }, "\(daemon.log)")
    let strict = try DaemonProcess()
    #expect(try strict.client().request("PING") == ["OK pong"])
    #expect(!strict.log.contains("looser"), "\(strict.log)")
  }
}
