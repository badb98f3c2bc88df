import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// More busy watchers than one turn has time to send to (`Outbox.sendingMicroseconds`): those
/// the turn's budget did not reach get their events in the next turns, every one and in order,
/// a client's own reply still comes after everything it was owed before it, and a watcher that
/// hangs up meanwhile still gets everything before its connection ends.
///
/// The daemon is stopped (SIGSTOP) while the changes are put in the writer's socket, so that
/// one turn carries them all out and fans them out to every watcher at once.
@Suite struct WatcherCarryOverTests {
  static let changes = 80

  /// The counts of the `EVENT b` lines in `lines`.
  private func counts(_ lines: [String]) -> [String] {
    lines.map { $0.hasPrefix("EVENT b ") ? field($0, "count") ?? "?" : $0 }
  }

  /// Stops the daemon, has `whileStopped` put requests in sockets, and lets it go on.
  private func stopped(_ daemon: DaemonProcess, _ whileStopped: () throws -> Void) throws {
    #expect(kill(daemon.pid, SIGSTOP) == 0)
    defer { kill(daemon.pid, SIGCONT) }
    #expect(waitUntil { processState(daemon.pid) == "T" })
    try whileStopped()
    #expect(kill(daemon.pid, SIGCONT) == 0)
  }

  /// The daemon's debug log says a turn left watchers to the next: the events of 600 watchers
  /// take longer to send than a turn's budget, so the tests above went through the carry-over.
  private func expectCarriedOver(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = daemon.log.split(separator: "\n").filter { $0.contains("more wait for the next.") }
    #expect(!lines.isEmpty, "no turn carried watchers over", sourceLocation: sourceLocation)
    print("carry-over: \(lines.first ?? "none")")
  }

  /// The writer's replies, `INCR b` number 1 to `changes` in order.
  private func expectReplies(of writer: RawClient) throws {
    for n in 1...Self.changes {
      let reply = try writer.readReply()
      #expect(reply.count == 2 && field(reply[0], "count") == String(n), "reply \(n): \(reply)")
    }
  }

  @Test func watchersPastOneTurnsBudgetGetEveryEventInOrderThenTheirReply() throws {
    let daemon = try DaemonProcess(arguments: ["--log-level", "debug"])
    let watchers = try (0..<600).map { _ in try daemon.client() }
    for watcher in watchers { #expect(try watcher.request("WATCH b").last == "OK watching") }
    let writer = try daemon.client()
    try stopped(daemon) { try writer.send(Array(repeating: "INCR b\n", count: Self.changes).joined()) }
    try expectReplies(of: writer)
    let events = (1...Self.changes).map(String.init)
    for (i, watcher) in watchers.enumerated() {
      var lines: [String] = []
      for _ in 1...Self.changes { lines.append(try watcher.readLine() ?? "(closed)") }
      #expect(counts(lines) == events, "watcher \(i)")
      // Its own request, after the events it was owed: the reply comes next, nothing between.
      let reply = try watcher.request("GET b")
      #expect(
        reply.count == 2 && reply[0].hasPrefix("STATE b ") && field(reply[0], "count") == String(Self.changes),
        "\(reply)")
    }
    expectCarriedOver(daemon)
    try expectHealthy(daemon, peakMiB: 64, "\(Self.changes) changes to 600 watchers")
  }

  /// 600 watchers hang up (end their input) while a new client's changes wait with its
  /// connection: the listening socket and the poll set are two sources, dispatched in either
  /// order, and a connection is read as soon as it is accepted, so the changes are carried out
  /// in a turn of their own. A watcher whose end is read before them goes at once (nothing was
  /// sent to it: at most the 256 one `epoll_wait` reports, `PollSet.batch`); the others get the
  /// events, and those carried over when their end is read still get them before their
  /// connection ends.
  @Test func aWatcherThatHangsUpWhileCarriedOverStillGetsEverything() throws {
    let daemon = try DaemonProcess(arguments: ["--log-level", "debug"])
    let watchers = try (0..<600).map { _ in try daemon.client() }
    for watcher in watchers { #expect(try watcher.request("WATCH b").last == "OK watching") }
    var writer: RawClient?
    try stopped(daemon) {
      for watcher in watchers { shutdown(watcher.fd, Int32(SHUT_WR)) }
      writer = try daemon.client()  // waits in the listening socket's queue
      try writer?.send(Array(repeating: "INCR b\n", count: Self.changes).joined())
    }
    guard let writer else { return }
    try expectReplies(of: writer)
    let events = (1...Self.changes).map(String.init)
    var served = 0
    for (i, watcher) in watchers.enumerated() {
      var lines: [String] = []
      while let line = try watcher.readLine() { lines.append(line) }  // until the daemon closes it
      #expect(lines.isEmpty || counts(lines) == events, "watcher \(i): \(lines)")
      if !lines.isEmpty { served += 1 }
    }
    print("carry-over: \(served) of 600 watchers that hung up got the events first")
    expectCarriedOver(daemon)
    #expect(served >= 344, "all but the 256 the first turn may have read: \(served)")
    try expectHealthy(daemon, peakMiB: 64, "600 watchers hanging up during \(Self.changes) changes")
  }
}
