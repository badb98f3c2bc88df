import BadgeProtocol
import Testing

@testable import BadgeCore

/// The running total on state lines, as the daemon writes it and clients read it, and the
/// clear a client sends for what it showed.
@Suite struct TotalLineTests {
  @Test func theTotalComesLastAfterTheStep() throws {
    let store = Store()
    _ = try store.apply(.configure(set: SettingsOverride(pulseMs: 0, step: 5), reset: []), to: name("ci"), now: 0)
    _ = try store.apply(.write(.incr(7)), to: name("ci"), now: 0)
    _ = try store.apply(.write(.clear(upTo: 5)), to: name("ci"), now: 0)
    var out: [UInt8] = []
    ReplyEncoder.appendState(store.channel(named: name("ci")), kind: .state, now: 0, to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == "STATE ci count=2 label=2 dot=0 pulse=0 muted=0 seq=3 badge=count dnd=off unseen=2 step=5 total=7\n")
  }

  @Test func clientsReadTheTotalAndClearUpToIt() {
    guard
      case .event(let shown) = ReplyLine(
        "EVENT mail count=5 label=5 dot=0 pulse=0 muted=0 seq=4 badge=count dnd=off unseen=5 total=9")
    else {
      Issue.record("not an event")
      return
    }
    #expect(shown.total == 9 && shown.count == 5)
    #expect(shown.clearRequest.map { RequestEncoder.line($0) } == "CLEAR mail upto=9")
    // An older daemon sends no total: the clear is whole, as it always was.
    guard case .state(let old) = ReplyLine("STATE mail count=5 label=5 dot=0 pulse=0 muted=0 seq=4") else {
      Issue.record("a line without total must still parse")
      return
    }
    #expect(old.total == nil)
    #expect(old.clearRequest.map { RequestEncoder.line($0) } == "CLEAR mail")
    #expect(
      ReplyLine("STATE mail count=5 label=5 dot=0 pulse=0 muted=0 seq=4 total=-1")
        == .data(
          "STATE mail count=5 label=5 dot=0 pulse=0 muted=0 seq=4 total=-1"))
  }

  @Test func aRepeatIsAnOKWithItsWord() {
    var out: [UInt8] = []
    ReplyEncoder.appendRepeated(to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "OK repeated\n")
    #expect(ReplyLine("OK repeated") == .ok(RequestLine.repeatedText))
    #expect(ReplyLine("OK repeated").isStatus)
  }
}
