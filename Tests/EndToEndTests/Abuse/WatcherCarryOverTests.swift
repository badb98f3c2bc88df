import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// More busy watchers than one turn has time to send to (`SocketSender.sendingMicroseconds`): those
/// the turn's budget did not reach get their events in the next turns, every one and in order,
/// a client's own reply still comes after everything it was owed before it, and a watcher that
/// hangs up meanwhile still gets everything before its connection ends.
///
/// The daemon is stopped (SIGSTOP) while the changes are put in the writer's socket, so that
/// one turn carries them all out and fans them out to every watcher at once.
@Suite struct WatcherCarryOverTests {
  static let changes = 80
  /// Without a pulse window: on a busy machine, reading 600 watchers' events takes longer than
  /// the default 3 s window, whose end is one more event that would come between a watcher's
  /// last change and its reply.
  static let config = "[daemon]\npulse_ms = 0\n"

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

  /// Says whether a turn left watchers to the next (the daemon's debug log). The 2 ms budget
  /// is time, so whether 600 watchers' events outlast it depends on the machine's speed: the
  /// carry-over itself is asserted in process, where the budget is counted (SendBudgetTests);
  /// here, what every watcher gets is asserted either way.
  private func reportCarryOver(_ daemon: DaemonProcess) {
    let lines = daemon.log.split(separator: "\n").filter { $0.contains("more wait for the next.") }
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
    let daemon = try DaemonProcess(config: Self.config, arguments: ["--log-level", "debug"])
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
    reportCarryOver(daemon)
    try expectHealthy(daemon, peakMiB: 64, "\(Self.changes) changes to 600 watchers")
  }

  /// 600 watchers hang up (end their input) just after a writer's changes reached the daemon.
  /// One `epoll_wait` reports ready descriptors in the order they became ready, so the
  /// writer's changes are carried out in the first turn, which also reads the ends of the
  /// first watchers, as many as one wait reports (`PollSet.batch`): those go at once, as the
  /// turn's events are published after every end it read (nothing was sent to them). The
  /// others' ends are read in the turns after, while their events are carried over: they still
  /// get every event before their connection ends.
  @Test func aWatcherThatHangsUpWhileCarriedOverStillGetsEverything() throws {
    let daemon = try DaemonProcess(config: Self.config, arguments: ["--log-level", "debug"])
    let watchers = try (0..<600).map { _ in try daemon.client() }
    for watcher in watchers { #expect(try watcher.request("WATCH b").last == "OK watching") }
    let writer = try daemon.client()
    #expect(try writer.request("PING") == ["OK pong"], "the writer is accepted before the daemon stops")
    try stopped(daemon) {
      try writer.send(Array(repeating: "INCR b\n", count: Self.changes).joined())
      for watcher in watchers { shutdown(watcher.fd, Int32(SHUT_WR)) }
    }
    try expectReplies(of: writer)
    let events = (1...Self.changes).map(String.init)
    var served = 0
    for (i, watcher) in watchers.enumerated() {
      var lines: [String] = []
      while let line = try watcher.readLine() { lines.append(line) }  // until the daemon closes it
      #expect(lines.isEmpty || counts(lines) == events, "watcher \(i): \(lines)")
      #expect(served == 0 || !lines.isEmpty, "watcher \(i) got nothing, yet one whose end came before it did")
      if !lines.isEmpty { served += 1 }
    }
    reportCarryOver(daemon)
    #expect(served >= 600 - 256, "all but the ends the first turn read: \(served)")
    try expectHealthy(daemon, peakMiB: 64, "600 watchers hanging up during \(Self.changes) changes")
  }
}
