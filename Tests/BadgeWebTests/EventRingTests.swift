import BadgeCore
import BadgeWeb
import Testing

/// `EventRing`: cursors, falling behind, resuming at every kind of id, eviction by count and
/// by bytes, and a new epoch after the daemon's numbers start again.
@Suite struct EventRingTests {
  /// A change's bytes: `c<seq>;`, so a read shows which entries it took.
  static func change(_ seq: UInt64) -> [UInt8] { Array("c\(seq);".utf8) }
  /// Another event's bytes: `s<key>;`.
  static func other(_ key: UInt64) -> [UInt8] { Array("s\(key);".utf8) }

  static func text(_ read: EventRing.Read) -> String? {
    guard case .events(let bytes, _) = read else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Changes 11, 12 (with a pulse end after it), 13, after a base of 10.
  static func sample() -> EventRing {
    var ring = EventRing(base: 10)
    ring.appendChange(seq: 11, channel: ChannelName("mail"), bytes: change(11))
    ring.appendChange(seq: 12, channel: ChannelName("chat"), bytes: change(12))
    ring.appendEvent(channel: ChannelName("chat"), bytes: other(12))
    ring.appendChange(seq: 13, channel: ChannelName("mail"), bytes: change(13))
    return ring
  }

  @Test func readsEveryEntryFromACursorAndTheCursorAfterThem() {
    let ring = Self.sample()
    #expect(ring.start == 0 && ring.end == 4)
    #expect(ring.read(from: 0, upTo: 1000) == .events(Array("c11;c12;s12;c13;".utf8), next: 4))
    #expect(ring.read(from: 2, upTo: 1000) == .events(Array("s12;c13;".utf8), next: 4))
    #expect(ring.read(from: 4, upTo: 1000) == .events([], next: 4))
  }

  @Test func readsWholeEntriesUpToTheLimitButAlwaysOne() {
    let ring = Self.sample()
    #expect(ring.read(from: 0, upTo: 9) == .events(Array("c11;c12;".utf8), next: 2))
    #expect(ring.read(from: 0, upTo: 1) == .events(Array("c11;".utf8), next: 1))
  }

  @Test func filtersByPatternsButKeepsEveryClientsEvents() {
    var ring = Self.sample()
    ring.appendEvent(channel: nil, bytes: Array("dnd;".utf8))
    let patterns = [ChannelPattern("mail")!]
    #expect(ring.read(from: 0, upTo: 1000, patterns: patterns) == .events(Array("c11;c13;dnd;".utf8), next: 5))
  }

  @Test func resumesAfterAChangeAtTheFirstEventAfterIt() {
    let ring = Self.sample()
    #expect(ring.position(resumingAfter: 10) == .at(0))
    #expect(ring.position(resumingAfter: 11) == .at(1))
    #expect(ring.position(resumingAfter: 13) == .at(4))
  }

  @Test func aPulseEndAfterTheLastChangeIsSentAgain() {
    let ring = Self.sample()
    #expect(ring.position(resumingAfter: 12) == .at(2))
    #expect(Self.text(ring.read(from: 2, upTo: 1000)) == "s12;c13;")
  }

  @Test func anIdBetweenKeptSeqsResumesAtTheNextChange() {
    var ring = EventRing(base: 10)
    ring.appendChange(seq: 12, channel: nil, bytes: Self.change(12))
    ring.appendChange(seq: 15, channel: nil, bytes: Self.change(15))
    #expect(ring.position(resumingAfter: 11) == .at(0))
    #expect(ring.position(resumingAfter: 13) == .at(1))
    #expect(ring.position(resumingAfter: 14) == .at(1))
  }

  @Test func anIdBeforeTheBaseNeedsAReplayAndOnePastTheLatestAReset() {
    let ring = Self.sample()
    #expect(ring.position(resumingAfter: 9) == .needsReplay)
    #expect(ring.position(resumingAfter: 0) == .needsReplay)
    #expect(ring.position(resumingAfter: 14) == .reset)
    #expect(ring.position(resumingAfter: .max) == .reset)
  }

  @Test func aChangeNotAboveTheLatestIsRefused() {
    var ring = Self.sample()
    let equal = ring.appendChange(seq: 13, channel: nil, bytes: Self.change(13))
    let lower = ring.appendChange(seq: 5, channel: nil, bytes: Self.change(5))
    #expect(!equal && !lower)
    #expect(ring.count == 4 && ring.latestSeq == 13)
  }

  @Test func evictionByCountRaisesTheBaseAndLeavesOldCursorsBehind() {
    var ring = EventRing(base: 0, capacity: 3)
    for seq in UInt64(1)...5 { ring.appendChange(seq: seq, channel: nil, bytes: Self.change(seq)) }
    #expect(ring.count == 3 && ring.start == 2 && ring.end == 5)
    #expect(ring.base == 2)
    #expect(ring.read(from: 1, upTo: 1000) == .fellBehind)
    #expect(Self.text(ring.read(from: 2, upTo: 1000)) == "c3;c4;c5;")
    #expect(ring.position(resumingAfter: 1) == .needsReplay)
    #expect(ring.position(resumingAfter: 2) == .at(2))
  }

  @Test func anEvictedEventAfterAChangeMakesThatChangesIdNeedAReplay() {
    var ring = EventRing(base: 0, capacity: 3)
    ring.appendChange(seq: 1, channel: nil, bytes: Self.change(1))
    ring.appendEvent(channel: nil, bytes: Self.other(1))
    ring.appendChange(seq: 2, channel: nil, bytes: Self.change(2))
    ring.appendChange(seq: 3, channel: nil, bytes: Self.change(3))
    #expect(ring.base == 1)
    ring.appendChange(seq: 4, channel: nil, bytes: Self.change(4))
    #expect(ring.base == 2)
    #expect(ring.position(resumingAfter: 1) == .needsReplay)
    #expect(ring.position(resumingAfter: 2) == .at(3))
  }

  @Test func evictionByBytesKeepsTheNewestEntryWhateverItsSize() {
    var ring = EventRing(base: 0, capacity: 100, byteLimit: 8)
    ring.appendChange(seq: 1, channel: nil, bytes: Self.change(1))
    ring.appendChange(seq: 2, channel: nil, bytes: Self.change(2))
    ring.appendChange(seq: 3, channel: nil, bytes: Self.change(3))
    #expect(ring.count == 2 && ring.byteCount == 6 && ring.base == 1)
    ring.appendChange(seq: 4, channel: nil, bytes: Array(repeating: 0x41, count: 50))
    #expect(ring.count == 1 && ring.byteCount == 50 && ring.base == 3 && ring.start == 3)
  }

  @Test func manyEvictionsKeepPositionsAbsolute() {
    var ring = EventRing(base: 0, capacity: 10)
    for seq in UInt64(1)...1000 { ring.appendChange(seq: seq, channel: nil, bytes: Self.change(seq)) }
    #expect(ring.start == 990 && ring.end == 1000 && ring.base == 990)
    #expect(ring.entry(at: 995)?.key == 996)
    #expect(ring.position(resumingAfter: 995) == .at(995))
    #expect(Self.text(ring.read(from: 998, upTo: 1000)) == "c999;c1000;")
  }

  @Test func aRebaseStartsAnEpochThatResumesByItsOwnNumbers() {
    var ring = Self.sample()
    ring.rebase(to: 3, bytes: Array("reset;".utf8))
    #expect(ring.base == 3 && ring.latestSeq == 3 && ring.epochStart == 4)
    ring.appendChange(seq: 4, channel: nil, bytes: Self.change(4))
    ring.appendChange(seq: 5, channel: nil, bytes: Self.change(5))
    // A reader along the way gets the reset and goes on.
    #expect(Self.text(ring.read(from: 3, upTo: 1000)) == "c13;reset;c4;c5;")
    // Old numbers past the new latest are a reset; resumes look in the new epoch only.
    #expect(ring.position(resumingAfter: 13) == .reset)
    #expect(ring.position(resumingAfter: 4) == .at(6))
    #expect(ring.position(resumingAfter: 3) == .at(4))
    #expect(ring.position(resumingAfter: 2) == .needsReplay)
  }

  @Test func droppingTheOldEpochLeavesTheNewBaseAlone() {
    var ring = EventRing(base: 100, capacity: 3)
    ring.appendChange(seq: 101, channel: nil, bytes: Self.change(101))
    ring.appendChange(seq: 102, channel: nil, bytes: Self.change(102))
    ring.rebase(to: 1, bytes: Array("reset;".utf8))
    ring.appendChange(seq: 2, channel: nil, bytes: Self.change(2))
    ring.appendChange(seq: 3, channel: nil, bytes: Self.change(3))
    #expect(ring.start == 2 && ring.base == 1)
    #expect(ring.position(resumingAfter: 1) == .at(2))
    ring.appendChange(seq: 4, channel: nil, bytes: Self.change(4))
    #expect(ring.base == 2)
  }
}
