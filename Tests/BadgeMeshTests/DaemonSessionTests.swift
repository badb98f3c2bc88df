import BadgeCore
import BadgeProtocol
import Testing

@testable import BadgeMesh

/// The daemon session alone: decoded lines in, events and requests out.
@Suite struct DaemonSessionTests {
  /// A session and its connection, greeted: the lines the connection wrote first.
  struct Greeted {
    var session: DaemonSession
    var wire: DaemonWire
    var lines: [String]

    init(_ config: MeshConfig = meshConfig()) {
      session = DaemonSession(config: config)
      wire = DaemonWire(firstRequests: session.firstRequests, watch: session.watchPatterns)
      lines = wire.connected()
      session.connected()
    }

    /// A line from the daemon, decoded by the connection and handed to the session.
    mutating func receive(_ line: String, into outbox: inout MeshOutbox) -> DaemonSession.Event? {
      guard let delivery = wire.receive(line) else { return nil }
      if case .reply(let request, let line) = delivery { return session.replied(request, line, into: &outbox) }
      return session.received(delivery, into: &outbox)
    }
  }

  @Test func theGreetingAsksForTheOutboxAndTheSharedChannels() {
    #expect(Greeted().lines == ["BRIDGE host=desktop", "FORWARDS", "WATCH mail ci*"])
    #expect(Greeted(meshConfig(share: "", dnd: .shared)).lines == ["BRIDGE host=desktop", "FORWARDS", "WATCH"])
  }

  @Test func theSnapshotKeepsTheSharedChannelsAndTheLastReplyMakesItReady() {
    var greeted = Greeted()
    var outbox = MeshOutbox()
    #expect(greeted.receive("OK", into: &outbox) == nil)
    #expect(greeted.receive("OK", into: &outbox) == nil)
    #expect(greeted.receive("STATE * dnd=1 left=0", into: &outbox) == .dndSnapshot(.init(on: true, leftMs: 0)))
    #expect(greeted.receive(stateLine("STATE", "mail", count: 2, seq: 7), into: &outbox) == nil)
    #expect(greeted.receive(stateLine("STATE", "news", count: 1, seq: 8), into: &outbox) == nil)
    #expect(!greeted.session.isReady)
    #expect(greeted.receive("OK watching", into: &outbox) == .ready)
    #expect(greeted.session.isReady)
    #expect(greeted.session.localStates.keys.sorted() == [name("mail")])
    #expect(greeted.session.localStates[name("mail")]?.figures.seq == 7)
    #expect(outbox.takeActions().isEmpty)
    let wasUp = greeted.session.closed()
    #expect(wasUp)
    #expect(!greeted.session.isReady && greeted.session.localStates.isEmpty)
    let again = greeted.session.closed()
    #expect(!again)
  }

  @Test func aRefusedGreetingClosesTheConnection() {
    var greeted = Greeted()
    var outbox = MeshOutbox()
    #expect(greeted.receive("ERR denied not here", into: &outbox) == nil)
    #expect(outbox.takeActions() == [.closeDaemon(reason: "badged refused the bridge: denied not here")])
    let wasUp = greeted.session.closed()
    #expect(!wasUp)
  }

  @Test func pushedLinesAreEvents() {
    var greeted = Greeted()
    var outbox = MeshOutbox()
    let event = greeted.receive(stateLine("EVENT", "ci-nightly", count: 4, seq: 9), into: &outbox)
    guard case .localChanged(let state) = event else {
      Issue.record("not a local change: \(String(describing: event))")
      return
    }
    #expect(state.name == name("ci-nightly") && state.figures.count == 4)
    #expect(greeted.session.localStates[name("ci-nightly")] == state)
    #expect(greeted.receive(stateLine("EVENT", "news", count: 4, seq: 10), into: &outbox) == nil)
    #expect(outbox.takeActions().isEmpty)
  }
}
