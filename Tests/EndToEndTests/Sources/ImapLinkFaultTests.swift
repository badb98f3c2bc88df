import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The IMAP source over a link the test cuts (dovecot in a network namespace of its own,
/// badged-sources in the client's), and ten accounts on one server: counts exact after each
/// fault, and no CPU spent while nothing happens or while the server is away.
@Suite struct ImapLinkFaultTests {
  typealias Stage = ImapSourceTests.Stage

  /// Cut for less than the keepalive: nothing notices, and a message delivered meanwhile comes
  /// once the link heals (TCP retransmits the server's push). Cut again and resumed: the resume
  /// check's NOOP gets no answer in 10 s, the connection is given up and its reconnection
  /// fails while the link is down (`retrying`); healed and resumed, it reconnects at once and
  /// resyncs exactly.
  @Test func aCutLinkHealedIsExactAndAResumeWhileCutRetriesUntilItHeals() throws {
    let network = try NetworkedMailServer()
    let server = network.server
    try server.deliver("m1")
    let stage = try Stage(
      server, folder: try TemporaryFolder(), url: network.url, wrapper: network.client.launcher)
    let started = try stage.awaitCount(1)
    try ImapFaultTests.ok(stage, count: 1)

    try network.cut()
    try server.deliver("m2")
    // The cut lasts 3 s, well under the keepalive's 60 s: the fault itself is a length of time.
    Thread.sleep(forTimeInterval: 3)
    try network.heal()
    #expect(try stage.awaitCount(2, limit: 2) == started + 1)
    #expect(stage.sources.logLines(containing: "; retrying.") == 0, "\(stage.context)")

    try network.cut()
    try server.deliver("m3")
    let resumed = Date()
    stage.sources.signal(SIGCONT)
    let status = try ImapFaultTests.retrying(stage, "unreachable", count: 2, timeout: 20)
    #expect(Date().timeIntervalSince(resumed) >= 10, "\(status)")
    try network.heal()
    ImapFaultTests.pastResumeWindow(since: resumed)
    stage.sources.signal(SIGCONT)
    #expect(try stage.awaitCount(3, limit: 4) == started + 2)
    try ImapFaultTests.ok(stage, count: 3)
    #expect(try server.unseen().subjects == ["m1", "m2", "m3"])
    #expect(
      stage.sources.logLines(
        containing: "Source inbox: no answer from \(NetworkedMailServer.serverAddress) in 10 s; retrying.") == 1,
      "\(stage.context)")
    #expect(stage.sources.logLines(containing: "unreachable; retrying.") == 1, "\(stage.context)")
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }

  /// Ten accounts (`[source.u1]` … `[source.u10]`), each a connection in IDLE: exact after a
  /// delivery to each; no CPU tick while idle; while the server is stopped, no more ticks than
  /// the back-off's attempts; and exact again once it is back.
  @Test func tenAccountsInIdleAreExactAndSpendNothingIdleOrWhileTheServerIsAway() throws {
    let users = MailServer.numbered(10)
    let server = try MailServer(users: users)
    let folder = try TemporaryFolder()
    var config = ""
    for (index, user) in users.enumerated() {
      try server.deliver(to: user, subject: "first")
      config += try Stage.section("u\(index + 1)", server: server, user: user, folder: folder)
    }
    let stage = try SourcesFixture(folder: folder, config: config)
    let sources = (1...10).map { "u\($0)" }
    for source in sources { #expect(field(try stage.awaitEvent(source, count: 1), "total") == "1") }
    for (source, user) in zip(sources, users) { try server.deliver(to: user, subject: "second-\(source)") }
    for source in sources { #expect(field(try stage.awaitEvent(source, count: 2), "total") == "2") }
    for source in sources { try stage.awaitStatus(source) { $0.contains(" state=ok ") && $0.contains(" count=2 ") } }

    // Idle: CPU time accumulates, so a window's ticks are measured over a time that passes, and
    // the window ends with a round trip (every source still ok, as the program reported it).
    // Nothing here waits for an event with a sleep: a spin would show as hundreds of ticks.
    let pid = stage.sources.pid
    var before = try cpuTicks(pid)
    Thread.sleep(forTimeInterval: 3)
    let listing = try stage.daemon.client().request("SOURCES")
    #expect(listing.filter { $0.contains(" state=ok ") }.count == 10, "\(listing)")
    #expect(try cpuTicks(pid) == before, "\(stage.context)")

    // The server stopped: each connection retries on the back-off's schedule (after 0.5–1 s,
    // then 1–2 s, 2–4 s…), so a 5 s window holds at most 3 attempts of each of the ten; at
    // most a tick for each.
    server.stop()
    for source in sources { try stage.awaitStatus(source) { $0.contains(" state=retrying ") } }
    before = try cpuTicks(pid)
    Thread.sleep(forTimeInterval: 5)
    let away = try stage.daemon.client().request("SOURCES")
    #expect(away.filter { $0.contains(" state=retrying ") }.count == 10, "\(away)")
    let spent = try cpuTicks(pid) - before
    #expect(spent <= 30, "\(spent) ticks\n\(stage.context)")

    // Back: a resume retries every connection at once; each is fresh at its count again.
    try server.restart()
    stage.sources.signal(SIGCONT)
    for source in sources { #expect(field(try stage.awaitEvent(source, count: 2), "total") == "2") }
    for source in sources {
      try stage.awaitStatus(source) { $0.contains(" state=ok ") && $0.contains(" count=2 ") }
    }
    for source in sources {
      #expect(stage.logLines(containing: "Source \(source): counting again after ") == 1, "\(stage.context)")
    }
    #expect(stage.sources.stop() == 0, "\(stage.context)")
  }
}
