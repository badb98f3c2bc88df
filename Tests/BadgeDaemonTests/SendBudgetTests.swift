import BadgeCore
import Testing

@testable import BadgeDaemon

/// A turn sends every reply, and to watchers without one while its budget lasts; the watchers
/// it did not reach are sent to first in the next turn, which begins without waiting.
@Suite struct DaemonSendBudgetTests {
  @Test func watchersPastTheBudgetAreCarriedToTheNextTurnWhichDoesNotWait() throws {
    let harness = try ServerHarness(sendBudget: .sends(2))
    let watchers = try harness.watchers(5)
    let writer = try harness.connect()
    try writer.send("INCR a\n")
    #expect(try harness.turn())
    #expect(try writer.lines().last == "OK", "a reply leaves in its turn whatever the budget")
    #expect(try watchers.map { try $0.lines().count } == [1, 1, 0, 0, 0])
    #expect(harness.core.sendQueue.carriedCount == 3)
    #expect(watchers[2...].allSatisfy { $0.connection?.carriedOver == true })
    #expect(try harness.turn(), "no socket is ready, and the turn runs")
    #expect(try watchers.map { try $0.lines().count } == [0, 0, 1, 1, 0])
    #expect(try harness.turn())
    #expect(try watchers.map { try $0.lines().count } == [0, 0, 0, 0, 1])
    #expect(harness.core.sendQueue.carriedCount == 0)
    #expect(try harness.turn() == false)
  }
}
