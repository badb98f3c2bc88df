import BadgeCore
import BadgeProtocol
import Testing

/// A session and what it hands on, in words a test compares (a class, so that `#expect` can
/// call what changes it).
final class SessionRig {
  var session: ClientSession<Int>

  init(limit: Int = 4, firstRequests: [ClientSession<Int>.FirstRequest] = [], watchLimit: Int = 10_000) {
    session = ClientSession(limit: limit, firstRequests: firstRequests, watchLimit: watchLimit)
  }

  func send(_ request: Request, id: String? = nil, ticket: Int) -> Bool {
    session.send(request, id: id, ticket: ticket)
  }

  func watchAlso(_ patterns: [ChannelPattern], ticket: Int) -> Bool { session.watchAlso(patterns, ticket: ticket) }

  func connected() { session.connected() }
  func watch(_ patterns: [ChannelPattern], since: UInt64? = nil) { session.watch(patterns, since: since) }
  func connectionEnded() -> [Int] { session.connectionEnded() }

  /// The bytes written since the last call, as text.
  func text() -> String { String(decoding: session.takeOutput(), as: UTF8.self) }

  /// Feeds `lines`; what each is handed on as.
  func feed(_ lines: [String]) -> [String] {
    lines.compactMap { line in session.receive(ReplyLine(line)).map(SessionRig.describe) }
  }

  static func describe(_ delivery: ClientSession<Int>.Delivery) -> String {
    switch delivery {
    case .reply(let ticket, .state(let snapshot)): return "reply \(ticket): state \(snapshot.channel)"
    case .reply(let ticket, .dnd(let dnd, _)): return "reply \(ticket): dnd \(dnd.isOn)"
    case .reply(let ticket, let line): return "reply \(ticket): \(line)"
    case .channel(let snapshot), .event(let snapshot):
      return "channel \(snapshot.channel) count=\(snapshot.count) seq=\(snapshot.seq)"
    case .dnd(let dnd): return "dnd \(dnd.isOn)"
    case .watching(let outcome): return outcome.statusText
    case .watchRefused(let code, let message): return "refused \(code) \(message)"
    case .gap(let channel, let seq, let held): return "gap \(channel) \(seq) < \(held)"
    case .forward(let id, let channel, _): return "forward \(id) \(channel)"
    case .unreadableForward(let text): return "unreadable forward \(text)"
    case .cleared(let channel, let upTo): return "cleared \(channel) upto=\(upTo)"
    case .reloaded: return "reloaded"
    }
  }
}

/// The client's side of a connection, line by line: requests written in order, replies handed
/// to the request that asked, pushed lines to the watch stream.
@Suite struct ClientSessionTests {
  typealias Session = ClientSession<Int>

  static func state(_ verb: String, _ channel: String, count: Int, seq: UInt64) -> String {
    "\(verb) \(channel) count=\(count) label=\(count == 0 ? "" : String(count)) dot=0 pulse=0 muted=0 seq=\(seq) "
      + "badge=count dnd=off unseen=\(count) total=\(count)"
  }

  @Test func requestsGoOutInOrderAndEachReplyGoesToItsRequest() {
    let rig = SessionRig(limit: 8)
    #expect(!rig.send(.ping, ticket: 0))  // not connected: nothing is sent
    rig.connected()
    #expect(rig.send(.write(name("mail"), .incr(2)), id: "k1", ticket: 1))
    #expect(rig.send(.get(name("mail")), ticket: 2))
    #expect(rig.send(.ping, ticket: 3))
    #expect(rig.text() == "INCR mail 2 id=k1\nGET mail\nPING\n")
    #expect(rig.text().isEmpty)
    let lines = [
      "OK", Self.state("STATE", "mail", count: 2, seq: 4), "OK", "OK pong",
    ]
    #expect(
      rig.feed(lines) == [
        "reply 1: ok(\"\")", "reply 2: state mail", "reply 2: ok(\"\")",
        "reply 3: ok(\"pong\")",
      ])
    #expect(rig.session.awaitingCount == 0)
    // A line that answers nothing is dropped.
    #expect(rig.feed(["OK"]).isEmpty)
  }

  @Test func atMostTheLimitAwaitRepliesAndWatchIsTheStreams() {
    let rig = SessionRig(limit: 2)
    rig.connected()
    #expect(rig.send(.ping, ticket: 1) && rig.send(.ping, ticket: 2))
    #expect(!rig.session.hasRoom(for: 1) && !rig.send(.ping, ticket: 3))
    #expect(!rig.send(.watch([]), ticket: 4) && !rig.send(.unwatch, ticket: 5))
    #expect(rig.text() == "PING\nPING\n")
    _ = rig.feed(["OK pong"])
    #expect(rig.session.hasRoom(for: 1) && !rig.session.hasRoom(for: 2))
  }

  @Test func aLostConnectionHandsBackWhatWasInFlightAndAsksAgainWhatIsKept() {
    let rig = SessionRig(limit: 4, firstRequests: [.init(.bridge(.attach(host: "desk")), ticket: 0)])
    rig.watch([pattern("mail"), pattern("c*")])
    rig.connected()
    #expect(rig.send(.write(name("mail"), .clear(upTo: 7)), id: "c1", ticket: 1))
    #expect(rig.text() == "BRIDGE host=desk\nWATCH mail c*\nCLEAR mail upto=7 id=c1\n")
    #expect(rig.feed(["OK"]) == ["reply 0: ok(\"\")"])
    #expect(rig.send(.ping, ticket: 2))
    #expect(rig.connectionEnded() == [1, 2])
    #expect(rig.session.output.isEmpty && !rig.session.hasRoom(for: 1))
    rig.connected()
    #expect(rig.text() == "BRIDGE host=desk\nWATCH mail c*\n")
  }

  @Test func theSnapshotThenEventsGoToTheStream() {
    let rig = SessionRig(limit: 4)
    rig.connected()
    rig.watch([])
    #expect(rig.send(.ping, ticket: 1))
    #expect(rig.text() == "WATCH\nPING\n")
    let delivered = rig.feed(
      [
        "STATE * dnd=0 left=0", Self.state("STATE", "a", count: 1, seq: 3), Self.state("STATE", "b", count: 0, seq: 0),
        "OK watching", Self.state("EVENT", "a", count: 2, seq: 5), "EVENT * dnd=1 left=0", "OK pong",
        "FORWARD f1 INCR m:x 1", Self.state("EVENT", "a", count: 2, seq: 5),
      ])
    #expect(
      delivered == [
        "dnd false", "channel a count=1 seq=3", "channel b count=0 seq=0", "watching", "channel a count=2 seq=5",
        "dnd true", "reply 1: ok(\"pong\")", "forward f1 m:x", "channel a count=2 seq=5",
      ])
  }

  @Test func aRefusedWatchIsSaidAndNothingIsWatched() {
    let rig = SessionRig(limit: 4)
    rig.watch([pattern("mail")])
    rig.connected()
    #expect(rig.feed(["ERR busy too many clients"]) == ["refused busy too many clients"])
    #expect(rig.session.stream.phase == .idle && rig.session.stream.patterns == nil)
  }

  /// An event below what the stream holds is a gap: `UNWATCH` and `WATCH` go out, events until
  /// `UNWATCH`'s reply are dropped, and the new snapshot reports the channels as they are.
  @Test func aGapIsHealedWithANewSnapshotOnTheSameConnection() {
    let rig = SessionRig(limit: 4)
    rig.watch([pattern("a*")])
    rig.connected()
    _ = rig.text()
    _ = rig.feed([Self.state("STATE", "ab", count: 4, seq: 10), "OK watching"])
    #expect(rig.session.stream.seq(of: "ab") == 10)
    #expect(rig.feed([Self.state("EVENT", "ab", count: 3, seq: 9)]) == ["gap ab 9 < 10"])
    #expect(rig.text() == "UNWATCH\nWATCH a*\n")
    #expect(rig.session.stream.phase == .healing)
    let after = rig.feed(
      [
        Self.state("EVENT", "ab", count: 5, seq: 11), "OK", "STATE * dnd=0 left=0",
        Self.state("STATE", "ab", count: 5, seq: 11), "OK watching", Self.state("EVENT", "ab", count: 6, seq: 12),
      ])
    #expect(after == ["dnd false", "channel ab count=5 seq=11", "watching", "channel ab count=6 seq=12"])
    #expect(rig.session.stream.phase == .watching && rig.session.stream.seq(of: "ab") == 12)
  }

  /// `WATCH since=`: its replayed lines go to the stream as a snapshot's do, and the end of the
  /// reply says whether they were a replay; a later connection asks what `resume(after:)` set.
  @Test func aWatchSinceSaysWhetherItReplayedOrReset() {
    let rig = SessionRig(limit: 4)
    rig.watch([pattern("a*")], since: 7)
    rig.connected()
    #expect(rig.text() == "WATCH since=7 a*\n")
    let replayed = rig.feed(
      [
        "STATE * dnd=0 left=0", Self.state("STATE", "ab", count: 1, seq: 8),
        Self.state("STATE", "ab", count: 2, seq: 9),
        "OK watching since=7", Self.state("EVENT", "ab", count: 3, seq: 10),
      ])
    #expect(
      replayed == [
        "dnd false", "channel ab count=1 seq=8", "channel ab count=2 seq=9", "watching since=7",
        "channel ab count=3 seq=10",
      ])
    rig.session.resume(after: 10)
    #expect(rig.text().isEmpty, "nothing is sent before the next connection")
    _ = rig.connectionEnded()
    rig.connected()
    #expect(rig.text() == "WATCH since=10 a*\n")
    #expect(
      rig.feed([Self.state("STATE", "ab", count: 9, seq: 40), "OK watching reset"]) == [
        "channel ab count=9 seq=40", "watching reset",
      ])
    rig.session.resume(after: nil)
    _ = rig.connectionEnded()
    rig.connected()
    #expect(rig.text() == "WATCH a*\n")
  }

  /// A connection that wanted one replay: `UNWATCH` once it came, and no `WATCH` afterwards.
  @Test func unwatchEndsTheStreamForThisAndLaterConnections() {
    let rig = SessionRig(limit: 4)
    rig.watch([], since: 5)
    rig.connected()
    #expect(rig.text() == "WATCH since=5\n")
    #expect(rig.feed([Self.state("STATE", "a", count: 1, seq: 6), "OK watching since=5"]).count == 2)
    rig.session.unwatch()
    #expect(rig.text() == "UNWATCH\n")
    #expect(rig.session.stream.phase == .idle && rig.session.stream.patterns == nil)
    #expect(rig.feed([Self.state("EVENT", "a", count: 2, seq: 7), "OK"]) == ["channel a count=2 seq=7"])
    #expect(rig.session.awaitingCount == 0)
    rig.session.unwatch()
    #expect(rig.text().isEmpty, "once is enough")
    _ = rig.connectionEnded()
    rig.connected()
    #expect(rig.text().isEmpty)
  }

  @Test(arguments: [
    ("watching", WatchOutcome.snapshot), ("watching since=0", .replayed(since: 0)),
    ("watching since=18446744073709551615", .replayed(since: UInt64.max)), ("watching reset", .reset),
  ])
  func theEndOfAWatchReadsBackAsItIsWritten(_ text: String, _ outcome: WatchOutcome) {
    #expect(outcome.statusText == text)
    #expect(WatchOutcome(statusText: text) == outcome)
  }

  @Test(arguments: ["", "watching since=", "watching since=+1", "watching since=x", "watching  reset", "pong"])
  func anotherOKIsNoWatchOutcome(_ text: String) {
    #expect(WatchOutcome(statusText: text) == nil)
  }
}

/// The sequence-number rule of the watch stream (docs/PROTOCOL.md, "Clients").
@Suite struct WatchStreamRuleTests {
  typealias Session = ClientSession<Int>

  static func watching(_ lines: [String]) -> SessionRig {
    let rig = SessionRig(limit: 4)
    rig.watch([])
    rig.connected()
    _ = rig.feed(lines + ["OK watching"])
    _ = rig.text()
    return rig
  }

  @Test func aRepeatedOrHigherSeqFollowsAndAForgottenChannelIsLetGo() {
    let rig = Self.watching([ClientSessionTests.state("STATE", "a", count: 3, seq: 7)])
    let lines = [
      ClientSessionTests.state("EVENT", "a", count: 3, seq: 7),  // a pulse's end: same seq
      ClientSessionTests.state("EVENT", "a", count: 4, seq: 9),
      ClientSessionTests.state("EVENT", "a", count: 0, seq: 0),  // forgotten
      ClientSessionTests.state("EVENT", "a", count: 1, seq: 2),  // nothing held: follows
      ClientSessionTests.state("EVENT", "new", count: 1, seq: 1),
    ]
    #expect(
      rig.feed(lines) == [
        "channel a count=3 seq=7", "channel a count=4 seq=9", "channel a count=0 seq=0", "channel a count=1 seq=2",
        "channel new count=1 seq=1",
      ])
    #expect(rig.session.output.isEmpty && rig.session.stream.phase == .watching)
    #expect(rig.session.stream.seq(of: "a") == 2 && rig.session.stream.seq(of: "new") == 1)
  }

  @Test func aGapIsFoundOnceAndEventsWaitForTheNewSnapshot() {
    let rig = Self.watching([ClientSessionTests.state("STATE", "a", count: 3, seq: 7)])
    let lines = [
      ClientSessionTests.state("EVENT", "a", count: 2, seq: 6),
      ClientSessionTests.state("EVENT", "a", count: 1, seq: 5),
    ]
    #expect(rig.feed(lines) == ["gap a 6 < 7"])
    #expect(rig.text() == "UNWATCH\nWATCH\n")
  }

  @Test func theStreamHoldsAtMostItsLimitOfChannels() {
    let rig = SessionRig(limit: 4, watchLimit: 2)
    rig.watch([])
    rig.connected()
    let lines = (1...3).map { ClientSessionTests.state("STATE", "c\($0)", count: 1, seq: UInt64(10 + $0)) }
    _ = rig.feed(lines + ["OK watching"])
    #expect(rig.session.stream.heldCount == 2 && rig.session.stream.seq(of: "c3") == nil)
    // Unheld, c3 is passed on unchecked.
    #expect(
      rig.feed([ClientSessionTests.state("EVENT", "c3", count: 1, seq: 1)]) == [
        "channel c3 count=1 seq=1"
      ])
  }

  /// A `FORWARD` line whose write this version cannot read is pushed all the same, said so,
  /// whether a reply is awaited or not.
  @Test func aForwardThatCannotBeReadIsHandedOnAsSuch() {
    let rig = SessionRig(limit: 4)
    rig.connected()
    #expect(rig.send(.forwards, ticket: 1))
    #expect(
      rig.feed(["FORWARD f1 EXPLODE mail", "FORWARD f2 INCR mail 1", "OK", "FORWARD f3 CONFIGURE mail style=dot"]) == [
        "unreadable forward f1 EXPLODE mail", "forward f2 mail", "reply 1: ok(\"\")",
        "unreadable forward f3 CONFIGURE mail style=dot",
      ])
  }

  /// The sources connection's pushes arrive between a request's reply lines and are never
  /// taken for one of them: the reply still ends at its status line, with its ticket.
  @Test func clearedAndReloadedArePushesNotReplies() {
    let rig = SessionRig(limit: 4)
    rig.connected()
    #expect(rig.send(.sources(.attach), ticket: 1))
    #expect(
      rig.feed(["CLEARED mail upto=12", "RELOADED", "OK", "CLEARED mail upto=13"]) == [
        "cleared mail upto=12", "reloaded", "reply 1: ok(\"\")", "cleared mail upto=13",
      ])
  }

  /// A `WATCH` of its own (the bridge's look-up of a channel) is a request like any other: its
  /// snapshot goes to its ticket, not to the stream, and it is not asked again.
  @Test func aWatchOfItsOwnIsAnsweredToItsTicket() {
    let rig = SessionRig(limit: 2)
    rig.watch([pattern("mail")])
    #expect(!rig.watchAlso([pattern("news")], ticket: 1))  // not connected
    rig.connected()
    #expect(rig.watchAlso([pattern("news")], ticket: 1))
    #expect(!rig.watchAlso([pattern("ci")], ticket: 2))  // the limit
    #expect(rig.text() == "WATCH mail\nWATCH news\n")
    let lines = [
      "STATE * dnd=0 left=0", ClientSessionTests.state("STATE", "mail", count: 1, seq: 3), "OK watching",
      "STATE * dnd=0 left=0", ClientSessionTests.state("STATE", "news", count: 2, seq: 4), "OK watching",
    ]
    #expect(
      rig.feed(lines) == [
        "dnd false", "channel mail count=1 seq=3", "watching", "reply 1: dnd false", "reply 1: state news",
        "reply 1: ok(\"watching\")",
      ])
    #expect(rig.session.stream.seq(of: "news") == nil)
    _ = rig.connectionEnded()
    rig.connected()
    #expect(rig.text() == "WATCH mail\n")
  }
}
