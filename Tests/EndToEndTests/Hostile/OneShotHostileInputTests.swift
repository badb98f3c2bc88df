import Foundation
import Testing

/// One-shot commands given replies past every limit by a `HostileServer`: they keep what they
/// print, never the reply, and `stats` keeps at most its channels.
@Suite struct OneShotHostileInputTests {
  /// Runs `badgectl arguments` against a server whose one connection gets `reply` (all but its
  /// status line), then, once the test has read badgectl's peak memory while it waits for
  /// the rest, `OK`. Returns what badgectl printed.
  func run(_ arguments: [String], request: String, reply: @escaping @Sendable (HostileConnection) throws -> Void) throws
    -> (
      status: Int32, stdout: String, stderr: String
    )
  {
    let sent = DispatchSemaphore(value: 0)
    let measured = DispatchSemaphore(value: 0)
    let server = try HostileServer(parts: [
      { connection in
        _ = try connection.readLine(startingWith: request)
        try reply(connection)
        sent.signal()
        // badgectl waits for the status line meanwhile (its reads time out after 10 s).
        guard measured.wait(timeout: .now() + 8) == .success else { throw TestFailure("not measured in time") }
        try connection.send("OK\n")
      }
    ])
    defer {
      measured.signal()
      server.stop()
    }
    let stdout = server.folder.file("stdout")
    let stderr = server.folder.file("stderr")
    var environment = Child.environment([:])
    environment["BADGED_SOCKET"] = server.socket
    let ctl = try Child(
      [Binaries.badgectl.path] + arguments, environment: environment, stdout: .file(stdout), stderr: .file(stderr))
    #expect(sent.wait(timeout: .now() + 300) == .success, "the reply was not read: \(server.problems)")
    try expectPeak(of: ctl.pid, "badgectl \(arguments[0]), with the reply read")
    measured.signal()
    let status = ctl.wait()
    #expect(server.problems.isEmpty, "\(server.problems)")
    return (
      status, try String(contentsOfFile: stdout, encoding: .utf8), try String(contentsOfFile: stderr, encoding: .utf8)
    )
  }

  @Test func listPrintsALongReplyWithoutKeepingIt() throws {
    let result = try run(["list"], request: "LIST") { connection in
      let dataLines = String(repeating: String(repeating: "d", count: 64_000) + "\n", count: 64)
      for _ in 0..<16 { try connection.send(dataLines) }
      try connection.send(HostileInput.outOfRange())
      for batch in stride(from: 0, to: 10_000, by: 1_000) {
        try connection.send(
          (batch..<batch + 1_000).map { HostileInput.state("c\($0)", kind: "STATE", count: String($0)) }.joined())
      }
    }
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 10_000)
    #expect(lines.first == "c0 0" && lines.last == "c9999 9999", "\(lines.first ?? "") … \(lines.last ?? "")")
  }

  @Test func statsShowsAtMostItsChannelsAndSaysHowManyItLeftOut() throws {
    let result = try run(["stats", "--format", "plain"], request: "STATS day") { connection in
      // Totals over every day from year 1 to 9999: a day each, kept, was 87 MB a line.
      try connection.send(
        String(repeating: "STATS c period=day from=0001-01-01 to=9999-12-31 arrivals=1 clears=0 peak=1\n", count: 100))
      for batch in stride(from: 0, to: 25_000, by: 1_000) {
        try connection.send(
          (batch..<batch + 1_000).map { n in
            "STATS c\(n) period=day from=2026-11-30 to=2026-11-30 arrivals=\(n) clears=0 peak=1\n"
              + "DAY c\(n) 2026-11-30 arrivals=\(n) clears=0 peak=1\n"
          }.joined())
      }
    }
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 20_000)
    #expect(lines.first == "c0: 0 arrivals, 0 clears, peak 1 (2026-11-30)")
    #expect(lines.last == "c19999: 19999 arrivals, 0 clears, peak 1 (2026-11-30)")
    #expect(result.stderr == "Showing the first 20000 channels of the reply; 5000 more left out.\n")
  }
}
