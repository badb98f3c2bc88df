import BadgeSystem
import Testing

@testable import BadgeDaemon

/// A connection's life: every pair of state and event, against the table in `Connection`'s
/// comment, written out again here; and a pair that cannot happen stops a debug build.
@Suite struct ConnectionStateTests {
  typealias State = Connection.State
  typealias Event = Connection.Event
  typealias Facts = Connection.Facts

  static let states: [State] = [
    .reading, .pausedUntilNextTurn, .pausedForOutput, .pausedForReply, .draining, .closed,
  ]
  static let events: [Event] = [
    .readable, .writable, .servedNextTurn, .linesCarriedOut(count: 1), .outputDrained,
    .socketFull(progressed: true), .endOfInput, .quit, .lineTimeout, .sendTimeout, .failed,
    .closedByServer,
  ]

  /// The table, row by row: the state after each event in each state of `states`, `nil` where
  /// the pair cannot happen. Where the next state depends on the connection, the row is for
  /// `Facts()` (nothing waits, nothing is full, no reply, allowance left).
  static let table: [(Event, [State?])] = [
    (.readable, [.reading, .pausedUntilNextTurn, .pausedForOutput, .pausedForReply, .draining, nil]),
    (.writable, [.reading, .pausedUntilNextTurn, .pausedForOutput, .pausedForReply, .draining, nil]),
    (.servedNextTurn, [nil, .reading, nil, nil, .draining, .closed]),
    (.linesCarriedOut(count: 1), [.reading, nil, nil, nil, .draining, nil]),
    (.outputDrained, [.reading, .pausedUntilNextTurn, .pausedUntilNextTurn, .pausedUntilNextTurn, .closed, nil]),
    (
      .socketFull(progressed: true),
      [.reading, .pausedUntilNextTurn, .pausedForOutput, .pausedForReply, .draining, nil]
    ),
    (.endOfInput, [.closed, nil, nil, nil, nil, nil]),
    (.quit, [.draining, nil, nil, nil, nil, nil]),
    (.lineTimeout, [.draining, .draining, nil, nil, nil, nil]),
    (.sendTimeout, [.closed, .closed, .closed, .closed, .closed, nil]),
    (.failed, [.closed, .closed, .closed, .closed, .closed, nil]),
    (.closedByServer, [.closed, .closed, .closed, .closed, .closed, .closed]),
  ]

  @Test func everyPairOfStateAndEventIsInTheTable() {
    #expect(Self.table.map(\.0) == Self.events, "one row per event, in order")
    var pairs = 0
    for (event, row) in Self.table {
      #expect(row.count == Self.states.count)
      for (state, expected) in zip(Self.states, row) {
        #expect(Connection.next(after: event, in: state, Facts()) == expected, "\(state) taking \(event)")
        pairs += 1
      }
    }
    #expect(pairs == 72)
  }

  /// Carrying out lines pauses a reading connection for the first reason that holds: its output
  /// full, then a reply under way, then its allowance spent.
  @Test(arguments: [
    (Facts(), State.reading),
    (Facts(allowanceSpent: true), .pausedUntilNextTurn),
    (Facts(replying: true, allowanceSpent: true), .pausedForReply),
    (Facts(outputFull: true, replying: true, allowanceSpent: true), .pausedForOutput),
    (Facts(outputWaits: true), .reading),
  ])
  func linesCarriedOutPauseForTheFirstReasonThatHolds(facts: Facts, expected: State) {
    #expect(Connection.next(after: .linesCarriedOut(count: 3), in: .reading, facts) == expected)
    #expect(Connection.next(after: .linesCarriedOut(count: 0), in: .reading, facts) == expected)
    #expect(Connection.next(after: .linesCarriedOut(count: 3), in: .draining, facts) == .draining, "QUIT among them")
  }

  /// The end of input drains a connection with output waiting, and closes one without at once.
  @Test func theEndOfInputDrainsOrCloses() {
    #expect(Connection.next(after: .endOfInput, in: .reading, Facts(outputWaits: true)) == .draining)
    #expect(Connection.next(after: .endOfInput, in: .reading, Facts()) == .closed)
  }

  /// Facts change only the two events that read them.
  @Test func factsChangeNoOtherEvent() {
    let all = Facts(outputWaits: true, outputFull: true, replying: true, allowanceSpent: true)
    for (event, _) in Self.table where !event.needsFacts {
      for state in Self.states {
        #expect(Connection.next(after: event, in: state, all) == Connection.next(after: event, in: state, Facts()))
      }
    }
  }

  /// A pair that cannot happen fails the assertion in `handle`, as a debug build (every test's)
  /// checks: a closed connection sent to.
  @Test func anImpossiblePairStopsADebugBuild() async {
    await #expect(processExitsWith: .failure) {
      let harness = try ServerHarness()
      let client = try harness.connect()
      client.endInput()
      try harness.turn()
      client.connection?.handle(.writable)
    }
  }
}
