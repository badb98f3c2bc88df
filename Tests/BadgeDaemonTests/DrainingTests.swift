import BadgeCore
import Testing

@testable import BadgeDaemon

/// A connection whose input ended, or that asked to `QUIT`, carries out no later line, and
/// closes once its output is sent: at once when none waits, after the socket took it all when
/// it does, watching for nothing but room meanwhile.
@Suite struct DrainingTests {
  @Test func quitIsAnsweredAndTheLinesAfterItAreNotCarriedOut() throws {
    let harness = try ServerHarness()
    let client = try harness.connect(sending: "PING\nQUIT\nINCR a\n")
    #expect(try client.lines() == ["OK pong", "OK bye"])
    #expect(try client.closed())
    #expect(client.connection?.state == .closed)
    #expect(harness.store.channel(named: ChannelName("a")!).count == 0)
  }

  @Test func theLinesBeforeTheEndOfInputAreCarriedOutThenTheConnectionCloses() throws {
    let harness = try ServerHarness()
    let client = try harness.connect()
    try client.send("INCR a\nINCR a\nPIN")
    client.endInput()
    // A read that leaves room took all the socket held at that instant: the end of input is
    // found by the next turn's read.
    #expect(try harness.turn())
    #expect(client.connection?.state == .reading)
    #expect(try harness.turn())
    let lines = try client.lines()
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("STATE a count=1 ") && lines[2].hasPrefix("STATE a count=2 "))
    #expect(lines[1] == "OK" && lines[3] == "OK", "the line never ended is dropped")
    #expect(try client.closed())
    #expect(harness.server.clientCount == 0)
  }

  /// A peer that ended its input and reads nothing holds its connection draining: watched for
  /// room alone, so its ended input does not wake every turn (a level-triggered end of input
  /// would), until it reads or the send timeout ends it.
  @Test func aDrainingConnectionWaitsForRoomWithoutWakingTheLoop() throws {
    let harness = try ServerHarness()
    let client = try harness.connect(sendBuffer: 4096)
    try client.send(String(repeating: "GET a\n", count: 200))
    client.endInput()
    #expect(try harness.turn())
    #expect(try harness.turn())
    let connection = try #require(client.connection)
    #expect(connection.state == .draining)
    #expect(connection.pendingOutput > 0)
    #expect(try harness.turn() == false, "nothing is ready")
    var replies = 0
    while connection.state == .draining {
      replies += try client.lines().filter { $0 == "OK" }.count
      #expect(try harness.turn())
    }
    replies += try client.lines().filter { $0 == "OK" }.count
    #expect(replies == 200)
    #expect(try client.closed())
  }
}
