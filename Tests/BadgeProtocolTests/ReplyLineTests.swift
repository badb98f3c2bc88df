import BadgeConfig
import BadgeProtocol
import Testing

@testable import BadgeCore

/// The client side: classifying the lines a daemon sends.
@Suite struct ReplyLineTests {
  static func snapshot(
    _ channel: String, count: Int, label: String, dot: Bool = false, pulse: Int = 0, muted: Bool = false, seq: UInt64
  ) -> ChannelSnapshot {
    ChannelSnapshot(channel: channel, count: count, label: label, dot: dot, pulseMs: pulse, muted: muted, seq: seq)
  }

  static let table: [(String, ReplyLine)] = [
    ("OK", .ok("")),
    ("OK pong", .ok("pong")),
    ("OK watching", .ok("watching")),
    (
      "ERR bad-name Invalid channel name '.x'; names are …",
      .error(code: "bad-name", message: "Invalid channel name '.x'; names are …")
    ),
    ("ERR failed", .error(code: "failed", message: "")),
    ("ERR failed ", .error(code: "failed", message: "")),
    (
      "STATE mail count=5 label=5 dot=0 pulse=3000 muted=0 seq=1",
      .state(snapshot("mail", count: 5, label: "5", pulse: 3000, seq: 1))
    ),
    (
      "EVENT mail count=0 label= dot=1 pulse=0 muted=1 seq=9",
      .event(snapshot("mail", count: 0, label: "", dot: true, muted: true, seq: 9))
    ),
    (
      "EVENT chat count=120 label=99+ dot=0 pulse=0 muted=0 seq=18446744073709551615",
      .event(snapshot("chat", count: 120, label: "99+", seq: UInt64.max))
    ),
    (
      "STATE d count=2 label=• dot=1 pulse=12 muted=0 seq=4",
      .state(snapshot("d", count: 2, label: "•", dot: true, pulse: 12, seq: 4))
    ),
    ("STATE mail seq=2 muted=0 pulse=0 dot=0 label=1 count=1", .state(snapshot("mail", count: 1, label: "1", seq: 2))),
    (
      "STATE  mail count=1  label=1 dot=0 pulse=0 muted=0 seq=2 ",
      .state(snapshot("mail", count: 1, label: "1", seq: 2))
    ),
    (
      "STATE mail count=1 label=1 dot=0 pulse=0 muted=0 seq=2 colour=red",
      .state(snapshot("mail", count: 1, label: "1", seq: 2))
    ),
    ("badged 0.1.0 protocol=1", .data("badged 0.1.0 protocol=1")),
    ("", .data("")),
    ("OKAY", .data("OKAY")),
    ("ok", .data("ok")),
    ("ERR", .data("ERR")),
    ("STATE", .data("STATE")),
    ("STATE ", .data("STATE ")),
    ("STATE mail", .data("STATE mail")),
    ("STATE mail count=1 label=1 dot=0 pulse=0 muted=0", .data("STATE mail count=1 label=1 dot=0 pulse=0 muted=0")),
    (
      "STATE mail count=x label=1 dot=0 pulse=0 muted=0 seq=1",
      .data("STATE mail count=x label=1 dot=0 pulse=0 muted=0 seq=1")
    ),
    (
      "EVENT mail count=1 label=1 dot=0 pulse=soon muted=0 seq=1",
      .data("EVENT mail count=1 label=1 dot=0 pulse=soon muted=0 seq=1")
    ),
    (
      "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=-1",
      .data("EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=-1")
    ),
    (
      "STATE mail count=1 count=1 count=1 count=1 count=1 count=1",
      .data("STATE mail count=1 count=1 count=1 count=1 count=1 count=1")
    ),
    (
      "STATE mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 junk",
      .data("STATE mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 junk")
    ),
  ]

  @Test(arguments: table)
  func classifies(_ line: String, _ expected: ReplyLine) {
    #expect(ReplyLine(line) == expected)
  }

  /// A line with a value no daemon sends is no state line: a client keeps nothing larger than
  /// a real line's values, and no value can take its arithmetic out of range.
  @Test(arguments: [
    "STATE m@il count=1 label=1 dot=0 pulse=0 muted=0 seq=1",
    "STATE \(String(repeating: "m", count: 65)) count=1 label=1 dot=0 pulse=0 muted=0 seq=1",
    "EVENT mail count=-1 label=1 dot=0 pulse=0 muted=0 seq=1",
    "EVENT mail count=2147483648 label=1 dot=0 pulse=0 muted=0 seq=1",
    "EVENT mail count=1 label=1 dot=0 pulse=3600001 muted=0 seq=1",
    "EVENT mail count=1 label=1 dot=0 pulse=-1 muted=0 seq=1",
    "EVENT mail count=1 label=1 dot=0 pulse=9223372036854775807 muted=0 seq=1",
    "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 unseen=-1",
    "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 unseen=2147483648",
    "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 total=-1",
    "EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1 total=9223372036854775808",
    "EVENT mail count=1 label=\(String(repeating: "9", count: 33)) dot=0 pulse=0 muted=0 seq=1",
    "STATE * dnd=1 left=2592000001",
    "STATE * dnd=1 left=-1",
  ])
  func valuesOutOfTheirRangeAreNoState(_ line: String) {
    #expect(ReplyLine(line) == .data(line))
  }

  @Test func theLargestValuesAreStates() {
    let label = String(repeating: "9", count: ReplyLine.maxLabelLength)
    let line =
      "EVENT \(String(repeating: "m", count: 64)) count=2147483647 label=\(label) dot=0 pulse=3600000 muted=0 seq=1 unseen=2147483647 total=9223372036854775807"
    guard case .event(let snapshot) = ReplyLine(line) else {
      Issue.record("not an event: \(ReplyLine(line))")
      return
    }
    #expect(snapshot.count == Limits.maxCount && snapshot.unseen == Limits.maxCount && snapshot.pulseMs == 3_600_000)
    #expect(snapshot.total == Int.max)
    #expect(snapshot.label == label)
    #expect(
      ReplyLine("STATE * dnd=1 left=2592000000") == .dnd(DNDSnapshot(isOn: true, leftMs: 2_592_000_000), pushed: false))
  }

  @Test func onlyOKAndERREndAReply() {
    #expect(ReplyLine("OK").isStatus)
    #expect(ReplyLine("ERR failed x").isStatus)
    #expect(!ReplyLine("STATE mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1").isStatus)
    #expect(!ReplyLine("EVENT mail count=1 label=1 dot=0 pulse=0 muted=0 seq=1").isStatus)
    #expect(!ReplyLine("badged 0.1.0 protocol=1").isStatus)
  }

  /// Encodes with `ReplyEncoder`, then parses the line back without its LF.
  static func roundTrip(_ encode: (inout [UInt8]) -> Void) -> ReplyLine {
    var out: [UInt8] = []
    encode(&out)
    #expect(out.last == 0x0A)
    #expect(out.dropLast().contains(0x0A) == false, "one line")
    return ReplyLine(String(decoding: out.dropLast(), as: UTF8.self))
  }

  @Test func stateAndEventLinesRoundTrip() throws {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: pattern("d*"), override: SettingsOverride(style: .dot), line: 1)]
    let store = Store(config: config.channels)
    _ = try store.apply(.write(.incr(7)), to: name("mail"), now: 1_000_000)
    _ = try store.apply(.write(.set(250)), to: name("chat"), now: 1_500_000)
    _ = try store.apply(.write(.mute), to: name("dnd"), now: 1_500_000)
    _ = try store.apply(.write(.incr(1)), to: name("dnd"), now: 1_500_000)
    _ = try store.apply(.configure(set: SettingsOverride(maxLabel: 9), reset: []), to: name("zero"), now: 0)
    let now: UInt64 = 2_000_000
    for channel in store.listed + [store.channel(named: name("unseen"))] {
      let expected = channel.snapshot(at: now)
      #expect(Self.roundTrip { ReplyEncoder.appendState(channel, kind: .state, now: now, to: &$0) } == .state(expected))
      #expect(Self.roundTrip { ReplyEncoder.appendState(channel, kind: .event, now: now, to: &$0) } == .event(expected))
    }
  }

  @Test(arguments: ProtocolError.Code.allCases)
  func errorLinesRoundTrip(_ code: ProtocolError.Code) {
    let error = ProtocolError(code, "Invalid channel name 'x y'; names are 1-64 characters")
    #expect(
      Self.roundTrip { ReplyEncoder.appendError(error, to: &$0) } == .error(code: code.rawValue, message: error.message)
    )
  }

  @Test func okAndDataLinesRoundTrip() {
    #expect(Self.roundTrip { ReplyEncoder.appendOK(to: &$0) } == .ok(""))
    #expect(Self.roundTrip { ReplyEncoder.appendOK("bye", to: &$0) } == .ok("bye"))
    #expect(
      Self.roundTrip { ReplyEncoder.appendData("badged 0.1.0 protocol=1", to: &$0) } == .data("badged 0.1.0 protocol=1")
    )
  }
}
