import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A client pipelining a flood of changes, fanned out to many watchers, does not keep other
/// clients waiting: a turn carries out a bounded number of one connection's lines (fewer the
/// more watchers there are), so a client that is ready at the same time is answered after a
/// few hundred of the flood's changes, not after all of them.
///
/// The daemon is stopped (SIGSTOP) while the flood and the other clients' requests are put in
/// their sockets, so that all are ready at once when it continues: what the other clients see
/// then depends on the turns alone, not on timing.
@Suite struct FloodFairnessTests {
  /// `Connections.lineAllowance(watchers: 100)`: 64 Ki event copies a turn / 100 watchers.
  static let allowance = 655

  @Test func clientsReadyDuringAFloodAreAnsweredWithinAFewTurns() throws {
    let daemon = try DaemonProcess()
    let watchers = try (0..<100).map { _ in try daemon.client() }
    for watcher in watchers { #expect(try watcher.request("WATCH b").last == "OK watching") }
    let writer = try daemon.client()
    let fresh = try daemon.client()  // connected (accepted) before the flood
    #expect(try fresh.request("PING") == ["OK pong"])

    #expect(kill(daemon.pid, SIGSTOP) == 0)
    defer { kill(daemon.pid, SIGCONT) }
    #expect(waitUntil { processState(daemon.pid) == "T" })
    let changes = 10_000
    try writer.send(Array(repeating: "INCR b\n", count: changes).joined())
    try fresh.send("PING\nGET b\n")
    let late = try daemon.client()  // waits in the listening socket's queue
    try late.send("PING\nGET b\n")
    #expect(kill(daemon.pid, SIGCONT) == 0)

    #expect(try fresh.readReply() == ["OK pong"])
    let seenByFresh = try countIn(fresh.readReply())
    #expect(seenByFresh <= Self.allowance, "ready with the flood, served in its first turn: \(seenByFresh)")
    #expect(try late.readReply() == ["OK pong"])
    let seenByLate = try countIn(late.readReply())
    // The listening socket and the poll set are two sources, dispatched in either order, and a
    // connection is read as soon as it is accepted: what the late client sent with its
    // connection is carried out before the writer's second allowance.
    #expect(seenByLate <= Self.allowance, "accepted and served before the flood's second turn: \(seenByLate)")
    print("flood fairness: the connected client saw \(seenByFresh) changes, the late one \(seenByLate)")

    // Nothing was lost: every change was answered in order, and every watcher's last event
    // shows the final count (events for a watcher that fell behind are merged per channel).
    for n in 1...changes {
      let reply = try writer.readReply()
      guard field(reply[0], "count") == String(n) else {
        Issue.record("reply \(n) was \(reply)")
        break
      }
    }
    let last = Array("EVENT b count=\(changes) ".utf8)
    for watcher in watchers {
      #expect(try receives(last, on: watcher.fd), "a watcher missed the last event")
    }
    #expect(try count("b", daemon) == changes)
    try expectHealthy(daemon, peakMiB: 64, "a flood of \(changes) changes to 100 watchers")
  }

  /// Reads raw bytes from `fd` (in large pieces: a watcher that fell behind has thousands of
  /// lines waiting) until `bytes` arrived; `false` when the connection closed first.
  private func receives(_ bytes: [UInt8], on fd: Int32) throws -> Bool {
    var seen: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 10_000) == 1 else { throw TestFailure("no event for 10 s") }
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return false }
      seen = Array(seen.suffix(bytes.count)) + chunk[..<n]
      if seen.firstRange(of: bytes) != nil { return true }
    }
  }

  /// The channel count of a `GET` reply.
  private func countIn(_ reply: [String]) throws -> Int {
    guard reply.count == 2, reply[1] == "OK", let count = field(reply[0], "count").flatMap({ Int($0) }) else {
      throw TestFailure("not a GET reply: \(reply)")
    }
    return count
  }
}
