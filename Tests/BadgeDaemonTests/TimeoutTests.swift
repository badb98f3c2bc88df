import BadgeConfig
import BadgeCore
import Glibc
import Testing

@testable import BadgeDaemon

/// A connection that holds the daemon's resources by being slow is closed exactly when its
/// limit has passed on the turn's clock, not a microsecond before: a line begun and not
/// finished (`[limits] line_timeout_ms`, slowloris), output none of which is read
/// (`[limits] send_timeout_ms`).
@Suite struct TimeoutTests {
  static func config(lineTimeoutMs: Int = 10_000, sendTimeoutMs: Int = 30_000) -> DaemonConfig {
    var config = DaemonConfig()
    config.limits.lineTimeoutMs = lineTimeoutMs
    config.limits.sendTimeoutMs = sendTimeoutMs
    return config
  }

  @Test func aLineNotFinishedIsAnsweredErrTimeoutAndClosedExactlyAtTheLimit() throws {
    let harness = try ServerHarness(config: Self.config(lineTimeoutMs: 1000))
    let idle = try harness.connect(sending: "PING\n")  // between lines: never timed out
    let begun = harness.clock.now
    let slow = try harness.connect(sending: "INC")
    #expect(harness.alarm.deadline == begun + 1_000_000)
    harness.advance(by: 999_999)
    #expect(try harness.turn() == false, "not before the limit")
    #expect(try slow.lines().isEmpty)
    harness.advance(by: 1)
    #expect(try harness.turn())
    #expect(
      try slow.lines() == [
        "ERR timeout A line was begun and not finished within 1000 ms ([limits] line_timeout_ms); closing the connection"
      ])
    #expect(try slow.closed())
    #expect(slow.connection?.state == .closed)
    #expect(try idle.lines() == ["OK pong"])
    #expect(try idle.closed() == false)
    #expect(harness.alarm.deadline == nil, "no deadline is left")
  }

  @Test func aLineThatProgressesStartsTheClockAgain() throws {
    let harness = try ServerHarness(config: Self.config(lineTimeoutMs: 1000))
    let slow = try harness.connect(sending: "PI")
    harness.advance(by: 600_000)
    try slow.send("NG\nGE")  // a line finished, the next begun: the clock starts again
    #expect(try harness.turn())
    #expect(try slow.lines() == ["OK pong"])
    #expect(harness.alarm.deadline == harness.clock.now + 1_000_000)
    harness.advance(by: 999_999)
    #expect(try harness.turn() == false)
    harness.advance(by: 1)
    #expect(try harness.turn())
    #expect(try slow.lines().first?.hasPrefix("ERR timeout ") == true)
  }

  @Test func outputNoneOfWhichIsReadIsClosedExactlyAtTheLimit() throws {
    let harness = try ServerHarness(config: Self.config(sendTimeoutMs: 2000))
    let started = harness.clock.now
    // More replies than the socket holds, and a client that reads none of them.
    let stuck = try harness.connect(sending: String(repeating: "GET a\n", count: 200), sendBuffer: 4096)
    let connection = try #require(stuck.connection)
    #expect(connection.pendingOutput > 0)
    #expect(connection.state == .reading, "200 replies are far from max_unsent_bytes")
    try Self.expectClosed(connection, exactlyAt: started + 2_000_000, by: harness)
    let warning = try #require(harness.logged.last { $0.contains("send_timeout_ms") })
    #expect(
      warning
        == "Client \(connection.id) (pid \(getpid())) has read none of its \(connection.pendingOutput) bytes of pending output for 2000 ms ([limits] send_timeout_ms); disconnecting it."
    )
  }

  @Test func outputReadInPartStartsTheClockAgain() throws {
    let harness = try ServerHarness(config: Self.config(sendTimeoutMs: 2000))
    let slow = try harness.connect(sending: String(repeating: "GET a\n", count: 200), sendBuffer: 4096)
    let connection = try #require(slow.connection)
    harness.advance(by: 1_500_000)
    let read = try slow.lines().count
    #expect(read > 0)
    #expect(try harness.turn(), "room to write: the next part goes out")
    #expect(connection.pendingOutput > 0)
    try Self.expectClosed(connection, exactlyAt: harness.clock.now + 2_000_000, by: harness)
  }

  /// Runs the clock to a microsecond before `deadline`, where no turn has anything to do and
  /// `connection` stays, then to `deadline`, whose turn closes it.
  static func expectClosed(
    _ connection: Connection, exactlyAt deadline: UInt64, by harness: ServerHarness,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(harness.alarm.deadline == deadline, sourceLocation: sourceLocation)
    harness.advance(by: deadline - 1 - harness.clock.now)
    #expect(try harness.turn() == false, "not before the limit", sourceLocation: sourceLocation)
    #expect(connection.state != .closed, sourceLocation: sourceLocation)
    harness.advance(by: 1)
    #expect(try harness.turn(), sourceLocation: sourceLocation)
    #expect(connection.state == .closed, sourceLocation: sourceLocation)
  }
}
