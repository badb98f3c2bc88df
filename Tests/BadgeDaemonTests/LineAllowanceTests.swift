import Testing

@testable import BadgeDaemon

/// How many lines one connection may have carried out in a turn: bounded, and smaller the more
/// watchers each line's event is copied to, so that a turn stays short.
@Suite struct LineAllowanceTests {
  @Test func theAllowanceShrinksWithWatchersBetweenItsBounds() {
    #expect(Connections.lineAllowance(watchers: 0) == 1024)
    #expect(Connections.lineAllowance(watchers: 1) == 1024)
    #expect(Connections.lineAllowance(watchers: 64) == 1024)
    #expect(Connections.lineAllowance(watchers: 100) == 655, "FloodFairnessTests relies on it")
    #expect(Connections.lineAllowance(watchers: 1000) == 65)
    #expect(Connections.lineAllowance(watchers: 4096) == 16)
    #expect(Connections.lineAllowance(watchers: 100_000) == 16, "a writer always makes progress")
  }
}
