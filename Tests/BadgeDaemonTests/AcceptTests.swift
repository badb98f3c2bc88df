import BadgeConfig
import BadgeCore
import BadgeSystem
import Glibc
import Testing

@testable import BadgeDaemon

/// The listening socket, in the poll set beside the clients: a client that connects and sends
/// is answered in the turn that accepts it; out of file descriptors, accepting pauses for a
/// second and then resumes.
@Suite struct AcceptTests {
  @Test func aClientIsAcceptedAndAnsweredInOneTurn() throws {
    let harness = try ServerHarness()
    let client = try harness.connectToListener()
    try client.send("PING\n")
    #expect(try harness.turn())
    #expect(try client.lines() == ["OK pong"])
    #expect(harness.server.clientCount == 1)
    #expect(harness.accepts == 2, "the client, then EAGAIN")
  }

  @Test func outOfDescriptorsAcceptingPausesForTheBackOffThenResumes() throws {
    let harness = try ServerHarness()
    harness.acceptFailures = [Errno(rawValue: EMFILE)]
    let client = try harness.connectToListener()
    try client.send("PING\n")
    let paused = harness.clock.now
    #expect(try harness.turn())
    #expect(harness.accepts == 1)
    #expect(harness.server.clientCount == 0)
    #expect(
      harness.logged.last
        == "Failed to accept a connection: \(Errno(rawValue: EMFILE)) (EMFILE); pausing accepting for a second at a time until a file descriptor is free."
    )
    #expect(harness.alarm.deadline == paused + Acceptor.backoff)
    #expect(try harness.turn() == false, "the listener is not watched: the pending client wakes nothing")
    harness.advance(by: Acceptor.backoff - 1)
    #expect(try harness.turn() == false)
    #expect(harness.accepts == 1)
    harness.advance(by: 1)
    #expect(try harness.turn())
    #expect(harness.accepts == 3, "the client, then EAGAIN")
    #expect(harness.server.clientCount == 1)
    #expect(try client.lines() == ["OK pong"])
  }

  @Test func pastMaxClientsAClientIsToldBusyAndClosed() throws {
    var config = DaemonConfig()
    config.limits.maxClients = 1
    let harness = try ServerHarness(config: config)
    let first = try harness.connect()
    let second = try harness.connectToListener()
    #expect(try harness.turn())
    #expect(
      try second.lines() == ["ERR busy 1 clients are connected already ([limits] max_clients); try again later"])
    #expect(try second.closed())
    #expect(try first.closed() == false)
  }
}
