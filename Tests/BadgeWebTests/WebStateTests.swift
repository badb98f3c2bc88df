import BadgeCore
import BadgeProtocol
import BadgeWeb
import Testing

/// `WebState`: the feed's lines become change, state and dnd events, in the ring, with the ids
/// of docs/WEB.md; the snapshot reflects the highest seq.
@Suite struct WebStateTests {
  static func mail(count: Int, seq: UInt64, pulse: Int = 0) -> ChannelSnapshot {
    ChannelSnapshot(
      channel: "mail", count: count, label: count == 0 ? "" : "\(count)", dot: false, pulseMs: pulse, muted: false,
      seq: seq, total: 140)
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func aNewSeqIsAChangeWithItsIdAndTheSameSeqAState() {
    var state = WebState()
    state.replace(dnd: DNDSnapshot(isOn: false, leftMs: 0), channels: [Self.mail(count: 1, seq: 12)])
    #expect(state.seq == 12)
    let change = state.apply(Self.mail(count: 3, seq: 13, pulse: 2994))
    let data =
      "{\"name\":\"mail\",\"count\":3,\"label\":\"3\",\"dot\":false,\"pulse\":2994,\"muted\":false,\"seq\":13,"
      + "\"badge\":\"count\",\"dnd\":\"off\",\"unseen\":3,\"step\":1,\"total\":140}"
    #expect(
      change
        == .change(seq: 13, channel: ChannelName("mail"), bytes: Array("id: 13\nevent: change\ndata: \(data)\n\n".utf8))
    )
    let end = state.apply(Self.mail(count: 3, seq: 13))
    guard case .state(_, let bytes) = end else {
      Issue.record("not a state event: \(end)")
      return
    }
    #expect(Self.text(bytes) == "event: state\ndata: \(data.replacingPulse())\n\n")
    #expect(state.seq == 13)
  }

  @Test func feedingFillsTheRingAndAResumeAfterTheLastChangeGetsThePulseEnd() {
    var state = WebState()
    var ring = EventRing(base: 12)
    state.replace(dnd: DNDSnapshot(isOn: false, leftMs: 0), channels: [Self.mail(count: 1, seq: 12)])
    state.feed(.event(Self.mail(count: 3, seq: 13, pulse: 2994)), into: &ring)
    state.feed(.event(Self.mail(count: 3, seq: 13)), into: &ring)
    state.feed(.dnd(DNDSnapshot(isOn: true, leftMs: 1_800_000), pushed: true), into: &ring)
    state.feed(.ok("watching"), into: &ring)
    #expect(ring.count == 3)
    #expect(ring.entry(at: 0)?.isChange == true && ring.entry(at: 0)?.key == 13)
    #expect(ring.entry(at: 1)?.isChange == false && ring.entry(at: 1)?.key == 13)
    #expect(ring.entry(at: 2).map { Self.text($0.bytes) } == "event: dnd\ndata: {\"on\":true,\"left\":1800000}\n\n")
    #expect(ring.position(resumingAfter: 13) == .at(1))
    #expect(ring.position(resumingAfter: 12) == .at(0))
  }

  @Test func theSnapshotIsEveryChannelByNameWithTheHighestSeq() {
    var state = WebState()
    let chat = ChannelSnapshot(
      channel: "chat", count: 2, label: "•", dot: true, pulseMs: 0, muted: true, seq: 7, silenced: .dim, unseen: 1,
      step: 5, mirror: MirrorState(owner: "desk"))
    state.replace(dnd: DNDSnapshot(isOn: true, leftMs: 5), channels: [Self.mail(count: 0, seq: 9), chat])
    #expect(
      state.snapshotJSON()
        == "{\"seq\":9,\"dnd\":{\"on\":true,\"left\":5},\"channels\":["
        + "{\"name\":\"chat\",\"count\":2,\"label\":\"•\",\"dot\":true,\"pulse\":0,\"muted\":true,\"seq\":7,"
        + "\"badge\":\"count\",\"dnd\":\"dim\",\"unseen\":1,\"step\":5,\"owner\":\"desk\",\"stale\":false},"
        + "{\"name\":\"mail\",\"count\":0,\"label\":\"\",\"dot\":false,\"pulse\":0,\"muted\":false,\"seq\":9,"
        + "\"badge\":\"count\",\"dnd\":\"off\",\"unseen\":0,\"step\":1,\"total\":140}]}")
    #expect(Self.text(state.snapshotEvent(patterns: [ChannelPattern("none")!])).hasPrefix("id: 9\nevent: snapshot\n"))
    #expect(
      Self.text(state.snapshotEvent(patterns: [ChannelPattern("none")!]))
        == "id: 9\nevent: snapshot\ndata: {\"seq\":9,\"dnd\":{\"on\":true,\"left\":5},\"channels\":[]}\n\n")
    #expect(
      Self.text(state.resetEvents()).hasPrefix("event: reset\ndata: {\"reason\":\"gap\"}\n\nid: 9\nevent: snapshot\n"))
  }

  @Test func aResetReplacesTheStateAndStartsAnEpochWithTheSnapshot() {
    var state = WebState()
    var ring = EventRing(base: 40)
    state.replace(dnd: DNDSnapshot(isOn: false, leftMs: 0), channels: [Self.mail(count: 9, seq: 50)])
    state.feed(.event(Self.mail(count: 10, seq: 51)), into: &ring)
    state.reset(dnd: DNDSnapshot(isOn: false, leftMs: 0), channels: [Self.mail(count: 2, seq: 3)], ring: &ring)
    #expect(state.seq == 3 && state.channel(named: "mail")?.count == 2)
    #expect(ring.base == 3 && ring.latestSeq == 3 && ring.epochStart == 1)
    #expect(ring.entry(at: 1).map { Self.text($0.bytes) } == Self.text(state.resetEvents()))
    #expect(ring.position(resumingAfter: 51) == .reset)
    state.feed(.event(Self.mail(count: 3, seq: 4)), into: &ring)
    #expect(ring.entry(at: 2)?.isChange == true && ring.entry(at: 2)?.key == 4)
    #expect(Self.text(WebState.changeEvent(Self.mail(count: 3, seq: 4))).hasPrefix("id: 4\nevent: change\ndata: {"))
  }

  @Test func aChangeTheRingRefusesGoesInAsAState() {
    var state = WebState()
    var ring = EventRing(base: 20)
    state.feed(.event(Self.mail(count: 1, seq: 5)), into: &ring)
    #expect(ring.count == 1 && ring.entry(at: 0)?.isChange == false)
    #expect(ring.entry(at: 0).map { Self.text($0.bytes).hasPrefix("event: state\n") } == true)
  }

  @Test func sseEventsKeepDataOnOneLine() {
    #expect(Self.text(ServerSentEvent.event("state", data: "a\nb\rc")) == "event: state\ndata: a b c\n\n")
    #expect(Self.text(ServerSentEvent.keepAlive) == ": keep-alive\n\n")
    #expect(Self.text(ServerSentEvent.retry()) == "retry: 1000\n\n")
    #expect(Self.text(ServerSentEvent.event("change", id: 4, data: "{}")) == "id: 4\nevent: change\ndata: {}\n\n")
  }

  @Test func errorOfflineAndResetJSON() {
    #expect(WebJSON.error("unauthorized") == "{\"error\":\"unauthorized\"}")
    #expect(WebJSON.error("usage", "n \"x\"") == "{\"error\":\"usage\",\"message\":\"n \\\"x\\\"\"}")
    #expect(WebJSON.offline(since: 1_700_000_000_000) == "{\"since\":1700000000000}")
    #expect(WebJSON.reset(reason: "gap") == "{\"reason\":\"gap\"}")
  }
}

extension String {
  /// The same channel JSON with its pulse over.
  fileprivate func replacingPulse() -> String {
    var copy = self
    if let range = copy.firstRange(of: "\"pulse\":2994") { copy.replaceSubrange(range, with: "\"pulse\":0") }
    return copy
  }
}
