import BadgeConfig
import BadgeCore
import Testing

@testable import BadgeDaemon

/// A client that pipelines without reading holds at most `[limits] max_unsent_bytes` of output
/// (and a line): its reading pauses there and resumes once the output drained; a long reply
/// goes out 64 KiB a turn, only as the client reads it.
@Suite struct BackPressureTests {
  /// The reply to `GET a` of a channel never written: a state line and `OK`.
  static let getReply =
    "STATE a count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0\nOK\n"

  @Test func readingPausesAtMaxUnsentBytesAndResumesOnceTheOutputDrained() throws {
    var config = DaemonConfig()
    config.limits.maxUnsentBytes = 65_536
    let harness = try ServerHarness(config: config)
    let client = try harness.connect(sending: String(repeating: "GET a\n", count: 2000), sendBuffer: 4096)
    let connection = try #require(client.connection)
    // Lines are carried out until the unsent output reaches the limit: 721 replies of 91
    // bytes (720 are 65,520 bytes), then reading pauses.
    let perTurn = (65_536 + Self.getReply.utf8.count - 1) / Self.getReply.utf8.count
    #expect(perTurn == 721)
    #expect(connection.state == .pausedForOutput)
    #expect(connection.linesLeft == 1024 - perTurn)
    #expect(connection.pendingOutput > 0, "the socket took only part of it")
    #expect(try harness.turn() == false, "nothing is read, and there is no room to write")

    // The client reads: each time the socket has room, a turn sends what it takes.
    var replies = 0
    var turns = 0
    while connection.state == .pausedForOutput {
      replies += try client.lines().filter { $0 == "OK" }.count
      #expect(try harness.turn())
      turns += 1
    }
    replies += try client.lines().filter { $0 == "OK" }.count
    #expect(replies == perTurn, "not one line more was carried out meanwhile")
    #expect(turns > 1)
    #expect(connection.state == .pausedUntilNextTurn, "drained: read again in the next turn")
    #expect(try harness.turn())
    #expect(connection.state == .pausedForOutput)
    #expect(connection.linesLeft == 1024 - perTurn, "a new turn's allowance, the same pause")
  }

  /// The bytes of each line, with its newline.
  static func bytes(_ lines: ArraySlice<String>) -> Int { lines.reduce(0) { $0 + $1.utf8.count + 1 } }

  @Test func aLongListGoesOutAChunkOfAtLeast64KiBATurnAsTheClientReadsIt() throws {
    let harness = try ServerHarness()
    let writer = try harness.connect(
      sending: (0..<2000).map { "INCR c\(String(10_000 + $0).dropFirst())\n" }.joined())
    var replies = try writer.lines().count
    while try harness.turn() { replies += try writer.lines().count }
    #expect(replies == 4000)
    // Room for a whole chunk in the socket, whatever the machine's default: each turn's chunk
    // goes out in that turn.
    let lister = try harness.connect(sending: "LIST\nPING\n", sendBuffer: 1 << 18)
    let connection = try #require(lister.connection)
    var chunks: [[String]] = []
    while true {
      let lines = try lister.lines()
      chunks.append(lines)
      if lines.last == "OK pong" { break }
      #expect(connection.state == .pausedUntilNextTurn, "the chunk went out: the next one comes next turn")
      #expect(try harness.turn())
    }
    let all = chunks.flatMap { $0 }
    #expect(all.count == 2000 + 2)
    #expect(all.suffix(2) == ["OK", "OK pong"], "the PING waited for the end of the reply")
    #expect(
      all.prefix(2000).map { $0.split(separator: " ")[1] } == (0..<2000).map { "c\(String(10_000 + $0).dropFirst())" })
    // Each chunk but the last is the fewest lines that make 64 KiB.
    for chunk in chunks.dropLast() {
      #expect(Self.bytes(chunk[...]) >= 65_536)
      #expect(Self.bytes(chunk.dropLast()) < 65_536)
    }
    #expect(chunks.map(\.count) == [670, 666, 662, 4], "2000 lines of 96 to 99 bytes, then OK and OK pong")
  }
}
