import BadgeCore
import Testing

@testable import BadgeMesh

/// The daemon session alone: lines in, events and requests out.
@Suite struct DaemonSessionTests {
  /// A session greeted: its requests sent and queued as the router queues them.
  static func greeted(_ config: MeshConfig = meshConfig()) -> (DaemonSession, [MeshAction]) {
    var session = DaemonSession(config: config)
    var outbox = MeshOutbox()
    session.connected(into: &outbox)
    session.expect(outbox.takeAwaited())
    return (session, outbox.takeActions())
  }

  @Test func theGreetingAsksForTheOutboxAndTheSharedChannels() {
    let (_, actions) = Self.greeted()
    #expect(actions.sent == ["BRIDGE host=desktop", "FORWARDS", "WATCH mail ci*"])
    let (_, alone) = Self.greeted(meshConfig(share: "", dnd: .shared))
    #expect(alone.sent == ["BRIDGE host=desktop", "FORWARDS", "WATCH"])
  }

  @Test func theSnapshotKeepsTheSharedChannelsAndTheLastReplyMakesItReady() {
    var (session, _) = Self.greeted()
    var outbox = MeshOutbox()
    #expect(session.receive("OK", into: &outbox) == nil)
    #expect(session.receive("OK", into: &outbox) == nil)
    #expect(session.receive("STATE * dnd=1 left=0", into: &outbox) == .dndSnapshot(.init(on: true, leftMs: 0)))
    #expect(session.receive(stateLine("STATE", "mail", count: 2, seq: 7), into: &outbox) == nil)
    #expect(session.receive(stateLine("STATE", "news", count: 1, seq: 8), into: &outbox) == nil)
    #expect(!session.isReady)
    #expect(session.receive("OK watching", into: &outbox) == .ready)
    #expect(session.isReady)
    #expect(session.localStates.keys.sorted() == [name("mail")])
    #expect(session.localStates[name("mail")]?.figures.seq == 7)
    #expect(outbox.takeActions().isEmpty)
    let wasUp = session.closed()
    #expect(wasUp)
    #expect(!session.isReady && session.localStates.isEmpty)
    let again = session.closed()
    #expect(!again)
  }

  @Test func aRefusedGreetingClosesTheConnection() {
    var (session, _) = Self.greeted()
    var outbox = MeshOutbox()
    #expect(session.receive("ERR denied not here", into: &outbox) == nil)
    #expect(outbox.takeActions() == [.closeDaemon(reason: "badged refused the bridge: denied not here")])
    let wasUp = session.closed()
    #expect(!wasUp)
  }

  @Test func pushedLinesAreEventsAndAStrayReplyIsLogged() {
    var (session, _) = Self.greeted()
    var outbox = MeshOutbox()
    let event = session.receive(stateLine("EVENT", "ci-nightly", count: 4, seq: 9), into: &outbox)
    guard case .localChanged(let state) = event else {
      Issue.record("not a local change: \(String(describing: event))")
      return
    }
    #expect(state.name == name("ci-nightly") && state.figures.count == 4)
    #expect(session.localStates[name("ci-nightly")] == state)
    #expect(session.receive(stateLine("EVENT", "news", count: 4, seq: 10), into: &outbox) == nil)
    for _ in 0..<3 { _ = session.receive("OK", into: &outbox) }
    #expect(session.receive("OK", into: &outbox) == nil)
    #expect(outbox.takeActions().logged == ["debug: Dropped a reply from badged that answers nothing: OK"])
  }
}
