import BadgeCore
import BadgeMesh
import BadgeProtocol
import Testing

/// The lines between the bridge and its daemon, word for word.
@Suite struct DaemonLinkTests {
  /// A request as the bridge sends it.
  static func line(_ request: Request, id: String? = nil) -> String { RequestEncoder.line(request, id: id) }

  /// What the bridge takes of a line from its daemon.
  enum Read: Equatable {
    case state(DaemonLink.LocalState, pushed: Bool)
    case dnd(DaemonLink.LocalDND, pushed: Bool)
    case forward(id: String, channel: ChannelName, command: ChannelCommand)
    case unreadableForward
    case other
  }

  /// A line read as the bridge's connection reads it (the client's decoder, `ClientSession`
  /// for a write it cannot read), then taken by `DaemonLink`.
  static func read(_ line: String) -> Read {
    switch ReplyLine(line) {
    case .state(let snapshot): return DaemonLink.localState(snapshot).map { .state($0, pushed: false) } ?? .other
    case .event(let snapshot): return DaemonLink.localState(snapshot).map { .state($0, pushed: true) } ?? .other
    case .dnd(let dnd, let pushed): return .dnd(DaemonLink.localDND(dnd), pushed: pushed)
    case .forward(let id, let channel, let write):
      return .forward(id: id, channel: channel, command: ChannelCommand(write, id: id))
    default:
      var session = ClientSession<Int>(limit: 1)
      if case .unreadableForward? = session.receive(ReplyLine(line)) { return .unreadableForward }
      return .other
    }
  }

  @Test func requests() {
    #expect(Self.line(.bridge(.attach(host: "desktop"))) == "BRIDGE host=desktop")
    #expect(Self.line(.forwards) == "FORWARDS")
    #expect(Self.line(.watch([ChannelPattern("mail")!, ChannelPattern("ci*")!])) == "WATCH mail ci*")
    #expect(Self.line(.watch([])) == "WATCH")
    let state = ChannelState(
      count: 3, label: "3", unseen: 2, total: 17, seq: 42, owner: "desktop", pulseMs: 2100, claimed: 9)
    #expect(
      Self.line(DaemonLink.mirror(name("mail"), state))
        == "MIRROR mail owner=desktop count=3 unseen=2 total=17 muted=0 dot=0 label=3 pulse=2100 oseq=42")
    #expect(Self.line(.forgetMirror(name("mail"))) == "MIRROR mail forget")
    #expect(
      Self.line(DaemonLink.stale(host: "desktop", true, since: 1_764_620_000)) == "STALE desktop 1 since=1764620000")
    #expect(Self.line(DaemonLink.stale(host: "desktop", false, since: 1_764_620_000)) == "STALE desktop 0")
    #expect(Self.line(DaemonLink.stale(host: "nas", true, since: nil)) == "STALE nas 1")
    #expect(Self.line(.delivered("laptop:9f3a:41")) == "DELIVERED laptop:9f3a:41")
    #expect(
      Self.line(
        DaemonLink.status(connected: false, broker: "mqtts://b:8883", pending: 2, error: "Connection refused\nagain"))
        == "BRIDGE status connected=0 broker=mqtts://b:8883 pending=2 error=Connection refused again")
  }

  @Test(arguments: [
    (ChannelCommand(.incr(2), id: "l:1:1"), "INCR mail 2 id=l:1:1"),
    (ChannelCommand(.decr(1), id: "l:1:2"), "DECR mail 1 id=l:1:2"),
    (ChannelCommand(.set(0), id: "l:1:3"), "SET mail 0 id=l:1:3"),
    (ChannelCommand(.clear(upTo: 17), id: "l:1:4"), "CLEAR mail upto=17 id=l:1:4"),
    (ChannelCommand(.clear(upTo: nil)), "CLEAR mail"),
    (ChannelCommand(.seen(upTo: 9), id: "l:1:5"), "SEEN mail upto=9 id=l:1:5"),
    (ChannelCommand(.mute, id: "l:1:6"), "MUTE mail id=l:1:6"),
    (ChannelCommand(.unmute, id: "l:1:7"), "UNMUTE mail id=l:1:7"),
    (ChannelCommand(.pulse(ms: 2000), id: "l:1:8"), "PULSE mail 2000"),
  ])
  func aWriteIsOneRequestLineAndReadsBackAsAForward(command: ChannelCommand, line: String) {
    #expect(Self.line(DaemonLink.request(name("mail"), command), id: command.id) == line)
    guard let id = command.id else { return }
    #expect(
      Self.read("FORWARD \(id) \(line)") == .forward(id: id, channel: name("mail"), command: command))
  }

  @Test func aForwardWithoutTheIdInItsLineOrInLowerCaseReads() {
    #expect(
      Self.read("FORWARD l:1:1 incr mail")
        == .forward(id: "l:1:1", channel: name("mail"), command: ChannelCommand(.incr(1), id: "l:1:1")))
  }

  @Test(arguments: [
    "FORWARD ", "FORWARD l:1:1", "FORWARD bad id INCR mail", "FORWARD l:1:1 INCR m@il", "FORWARD l:1:1 EXPLODE mail",
    "FORWARD l:1:1 INCR mail 0", "FORWARD l:1:1 INCR mail x", "FORWARD l:1:1 INCR mail 1 2", "FORWARD l:1:1 SET mail",
    "FORWARD l:1:1 CLEAR mail upto=-1", "FORWARD l:1:1 CLEAR mail 3", "FORWARD l:1:1 INCR mail id=l:1:2",
    "FORWARD l:1:1 CONFIGURE mail style=dot",
  ])
  func aForwardTheBridgeCannotReadIsSaidSo(line: String) {
    if case .unreadableForward = Self.read(line) {} else { Issue.record("\(line): \(Self.read(line))") }
  }

  @Test func stateLinesWithTheFieldsSharingAdds() {
    let event = Self.read(
      "EVENT mail count=3 label=3 dot=0 pulse=2100 muted=0 seq=42 badge=count dnd=off unseen=2 total=17")
    #expect(
      event
        == .state(
          DaemonLink.LocalState(name: name("mail"), count: 3, label: "3", unseen: 2, total: 17, seq: 42, pulseMs: 2100),
          pushed: true))
    let mirrored = Self.read(
      "STATE ci count=1 label=1 dot=0 pulse=0 muted=1 seq=7 badge=count dnd=off unseen=1 total=4 owner=nas "
        + "stale=1 since=5"
    )
    #expect(
      mirrored
        == .state(
          DaemonLink.LocalState(
            name: name("ci"), count: 1, label: "1", muted: true, unseen: 1, total: 4, seq: 7, owner: "nas"),
          pushed: false))
    // A daemon without running totals: no total.
    if case .state(let state, _) = Self.read("STATE a count=1 label=1 dot=0 pulse=0 muted=0 seq=1") {
      #expect(state.figures.total == nil && state.figures.unseen == 1)
    } else {
      Issue.record("a state line of protocol 1 reads")
    }
    #expect(
      Self.read("STATE a count=1 label=1 dot=0 pulse=0 muted=0 seq=1 total=x")
        == .other)
    #expect(
      Self.read("STATE a count=1 label=1 dot=0 pulse=0 muted=0 seq=1 owner=a:b")
        == .other)
  }

  @Test func theDoNotDisturbLineSaysWhereAChangeCameFrom() {
    #expect(Self.read("EVENT * dnd=1 left=0") == .dnd(DaemonLink.LocalDND(on: true, leftMs: 0), pushed: true))
    #expect(
      Self.read("EVENT * dnd=1 left=60000 from=laptop at=1764620000123")
        == .dnd(DaemonLink.LocalDND(on: true, leftMs: 60000, from: "laptop", at: 1_764_620_000_123), pushed: true))
    #expect(
      Self.read("STATE * dnd=0 left=0 at=5")
        == .dnd(DaemonLink.LocalDND(on: false, leftMs: 0, at: 5), pushed: false))
    #expect(Self.line(Request.dnd(.on(ms: 90_000))) == "DND on 90000ms")
    #expect(Self.line(Request.dnd(.on(ms: nil))) == "DND on")
    #expect(Self.line(Request.dnd(.off)) == "DND off")
  }

  /// Another machine's change: a timed end goes as what is left of it at the given wall-clock
  /// time, at most 30 days; one already past as off.
  @Test(
    arguments: [
      (true, 900, 800, "laptop", 850, "DND on 50ms from=laptop at=800"),
      (true, 900, 800, "laptop", 900, "DND off from=laptop at=800"),
      (true, 40 * 86_400_000, 800, "laptop", 1000, "DND on 2592000000ms from=laptop at=800"),
      (true, 0, 800, "laptop", 850, "DND on from=laptop at=800"),
      (false, 0, 801, "nas", 850, "DND off from=nas at=801"),
    ] as [(Bool, Int64, Int64, String, Int64, String)])
  func aRemoteDoNotDisturbIsAppliedWithWhatIsLeftOfIt(
    _ on: Bool, _ until: Int64, _ at: Int64, _ host: String, _ nowMs: Int64, _ line: String
  ) {
    #expect(Self.line(DaemonLink.remoteDND(DNDState(on: on, until: until, at: at, host: host), nowMs: nowMs)) == line)
  }

  @Test func repliesAndOtherLines() {
    #expect(ReplyLine("OK") == .ok(""))
    #expect(ReplyLine("OK watching") == .ok("watching"))
    #expect(ReplyLine("ERR full too many channels") == .error(code: "full", message: "too many channels"))
    #expect(Self.read("badged 0.1.0 protocol=1") == .other)
    #expect(ReplyLine("ERR x").isStatus && !ReplyLine("EVENT * dnd=0 left=0").isStatus)
  }
}
