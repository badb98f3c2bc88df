import BadgeCore
import Testing

@testable import BadgeDaemon

/// A client pipelining a flood does not keep the others waiting: a turn carries out a bounded
/// number of one connection's lines, fewer the more watchers each line's event is copied to, and
/// a client ready in the same turn is answered in it.
@Suite struct FairnessTests {
  /// The flood's replies carried out in a turn: each `INCR b` is answered with a state line and
  /// `OK`.
  static func replies(_ lines: [String]) -> Int { lines.filter { $0 == "OK" }.count }

  @Test func aNewClientsPingIsAnsweredInTheTurnThatCarriesOutTheFloodsFirstAllowance() throws {
    let harness = try ServerHarness()
    let writer = try harness.connect()
    try writer.send(String(repeating: "INCR b\n", count: 5000))
    let fresh = try harness.connectToListener()
    try fresh.send("PING\n")
    #expect(try harness.turn())
    #expect(try fresh.lines() == ["OK pong"], "accepted, read and answered in the flood's turn")
    #expect(Self.replies(try writer.lines()) == 1024, "one allowance of the flood")
    #expect(harness.store.channel(named: ChannelName("b")!).count == 1024)
    #expect(writer.connection?.state == .pausedUntilNextTurn)
    #expect(try harness.turn(), "the next turn does not wait for the socket")
    #expect(Self.replies(try writer.lines()) == 1024)
  }

  /// The count a state or event line shows.
  static func count(_ line: String?) -> String? {
    line?.split(separator: " ").first { $0.hasPrefix("count=") }.map { String($0.dropFirst(6)) }
  }

  @Test func theAllowanceShrinksAsWatchersGrow() throws {
    let harness = try ServerHarness()
    let watchers = try harness.watchers(100, "WATCH b")
    let writer = try harness.connect()
    let other = try harness.connect()
    try writer.send(String(repeating: "INCR b\n", count: 4000))
    try other.send("PING\n")
    #expect(try harness.turn())
    #expect(Self.replies(try writer.lines()) == 655, "64 Ki event copies a turn / 100 watchers")
    #expect(try other.lines() == ["OK pong"])
    // Each watcher took events up to its high-water mark, then the channel's latest state.
    for watcher in watchers { #expect(Self.count(try watcher.lines().last) == "655") }
    #expect(try harness.turn())
    #expect(Self.replies(try writer.lines()) == 655)
    for watcher in watchers { #expect(Self.count(try watcher.lines().last) == "1310") }

    // The watchers leave in the turn that carries out the flood's third allowance; the next
    // turn's allowance, with none left, is the most.
    for watcher in watchers { watcher.endInput() }
    #expect(try harness.turn())
    #expect(Self.replies(try writer.lines()) == 655)
    #expect(harness.core.watcherCount == 0)
    #expect(try harness.turn())
    #expect(Self.replies(try writer.lines()) == 1024)
    #expect(try harness.turn())
    #expect(Self.replies(try writer.lines()) == 4000 - 3 * 655 - 1024)
  }
}
