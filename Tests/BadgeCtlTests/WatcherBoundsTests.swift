import BadgeProtocol
import Testing

@testable import BadgeCtl
@testable import BadgeCtlSession

/// What a watcher keeps from its connection, bounded: the channels it shows and the requests
/// awaiting replies.
@Suite struct WatcherBoundsTests {
  @Test func channelsPastTheLimitAreRefusedOnceEachConnectionSays() {
    var shown = ShownChannels(limit: 3)
    #expect(["a", "b", "c", "a"].map { shown.admit($0) } == [.shown, .shown, .shown, .shown])
    #expect(shown.admit("d") == .refused(first: true))
    #expect(shown.admit("e") == .refused(first: false))
    #expect(shown.admit("d") == .refused(first: false))
    #expect(shown.count == 3)
  }

  @Test func aChannelTheNewConnectionDidNotReportGivesWayToANewOne() {
    var shown = ShownChannels(limit: 3)
    for name in ["a", "b", "c"] { _ = shown.admit(name) }
    shown.connectionEnded()
    // Reported again: current, and never given away.
    #expect(shown.admit("b") == .shown)
    guard case .replacing(let first) = shown.admit("x"), case .replacing(let second) = shown.admit("y") else {
      Issue.record("no earlier channel gave way")
      return
    }
    #expect(Set([first, second]) == ["a", "c"])
    #expect(shown.count == 3)
    // Every channel is current now: a new one is refused, and said once for this connection.
    #expect(shown.admit("z") == .refused(first: true))
    #expect(shown.admit("b") == .shown && shown.admit("x") == .shown && shown.admit("y") == .shown)
    shown.connectionEnded()
    #expect(shown.admit("b") == .shown)
    #expect(shown.admit("z") != .refused(first: false))
  }

  @Test func repliesBelongToTheOldestRequestAndAtMostTheLimitAwait() {
    var awaiting = AwaitedReplies<Request>(limit: 3)
    #expect(awaiting.oldest == nil && awaiting.hasRoom(for: 3) && !awaiting.hasRoom(for: 4))
    awaiting.sent(["CLEAR a", "CLEAR b"].map(request))
    #expect(awaiting.oldest == request("CLEAR a") && awaiting.count == 2)
    #expect(awaiting.hasRoom(for: 1) && !awaiting.hasRoom(for: 2))
    awaiting.answerOldest()
    #expect(awaiting.oldest == request("CLEAR b") && awaiting.count == 1)
    awaiting.sent(["STATS week a", "SET a 3"].map(request))
    #expect(!awaiting.hasRoom(for: 1))
    for expected in ["CLEAR b", "STATS week a", "SET a 3"] {
      #expect(awaiting.oldest == request(expected))
      awaiting.answerOldest()
    }
    #expect(awaiting.oldest == nil && awaiting.count == 0)
    awaiting.answerOldest()  // a status line that answers nothing
    #expect(awaiting.count == 0)
    awaiting.sent([.ping])
    awaiting.removeAll()
    #expect(awaiting.oldest == nil && awaiting.hasRoom(for: 3))
  }

  /// Requests sent while earlier ones are answered keep their order, however long the run.
  @Test func requestsSentWhileOthersAreAnsweredStayInOrder() {
    var awaiting = AwaitedReplies<Request>(limit: 1_000)
    var sent = 0
    var answered = 0
    func answer() {
      #expect(awaiting.oldest == request("GET r\(answered)"))
      awaiting.answerOldest()
      answered += 1
    }
    for round in 0..<1_000 {
      let more = round % 3 + 1
      #expect(awaiting.hasRoom(for: more))
      awaiting.sent((sent..<sent + more).map { request("GET r\($0)") })
      sent += more
      for _ in 0..<(round % 2 + 1) { answer() }
      #expect(awaiting.count == sent - answered)
    }
    while awaiting.oldest != nil { answer() }
    #expect(answered == sent)
  }
}
