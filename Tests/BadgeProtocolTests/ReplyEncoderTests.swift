import BadgeConfig
import Testing

@testable import BadgeCore
@testable import BadgeProtocol

/// The exact bytes of every line a server sends.
@Suite struct ReplyEncoderTests {
  /// A store whose channels were changed at 1 s on its clock.
  static func store() -> Store {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: pattern("dots:*"), override: SettingsOverride(style: .dot), line: 1)]
    return Store(config: config.channels)
  }

  static func state(_ channel: Channel, _ kind: ReplyEncoder.StateKind = .state, now: UInt64) -> String {
    var out: [UInt8] = []
    ReplyEncoder.appendState(channel, kind: kind, now: now, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @Test func stateAndEventLines() throws {
    let store = Self.store()
    let mail = try store.apply(.write(.incr(5)), to: name("mail"), now: 1_000_000).channel
    #expect(
      Self.state(mail, now: 1_000_000)
        == "STATE mail count=5 label=5 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=5 total=5\n")
    #expect(
      Self.state(mail, .event, now: 1_000_000)
        == "EVENT mail count=5 label=5 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=5 total=5\n")
  }

  @Test func pulseIsTheTimeLeftRoundedUp() throws {
    let mail = try Self.store().apply(.write(.incr(1)), to: name("mail"), now: 1_000_000).channel
    #expect(Self.state(mail, now: 1_000_001).contains(" pulse=3000 "))
    #expect(Self.state(mail, now: 2_500_000).contains(" pulse=1500 "))
    #expect(Self.state(mail, now: 3_999_999).contains(" pulse=1 "))
    #expect(Self.state(mail, now: 4_000_000).contains(" pulse=0 "))
    #expect(Self.state(mail, now: 9_000_000).contains(" pulse=0 "))
  }

  @Test func labelsPastMaxLabelAndDots() throws {
    let store = Self.store()
    let many = try store.apply(.write(.set(100)), to: name("chat"), now: 0).channel
    #expect(
      Self.state(many, now: 5_000_000)
        == "STATE chat count=100 label=99+ dot=0 pulse=0 muted=0 seq=1 badge=count dnd=off unseen=100 total=100\n")
    let dot = try store.apply(.write(.incr(3)), to: name("dots:a"), now: 0).channel
    #expect(
      Self.state(dot, now: 0)
        == "STATE dots:a count=3 label=• dot=1 pulse=3000 muted=0 seq=2 badge=count dnd=off unseen=3 total=3\n")
    let zero = try store.apply(.write(.set(0)), to: name("dots:a"), now: 0).channel
    #expect(
      Self.state(zero, .event, now: 0)
        == "EVENT dots:a count=0 label= dot=1 pulse=0 muted=0 seq=3 badge=count dnd=off unseen=0 total=3\n")
  }

  @Test func mutedAndNeverWrittenChannels() throws {
    let store = Self.store()
    _ = try store.apply(.write(.mute), to: name("news"), now: 0)
    let news = try store.apply(.write(.incr(2)), to: name("news"), now: 0).channel
    #expect(
      Self.state(news, now: 0)
        == "STATE news count=2 label=2 dot=0 pulse=0 muted=1 seq=2 badge=count dnd=off unseen=2 total=2\n")
    #expect(
      Self.state(store.channel(named: name("unseen")), now: 0)
        == "STATE unseen count=0 label= dot=0 pulse=0 muted=0 seq=0 badge=count dnd=off unseen=0 total=0\n")
  }

  @Test func largestValues() throws {
    let store = Self.store()
    store.restoreSeq(atLeast: UInt64.max - 2)
    _ = try store.apply(
      .configure(set: SettingsOverride(maxLabel: Limits.maxCount, pulseMs: 0), reset: []), to: name("big"), now: 0)
    let big = try store.apply(.write(.set(Limits.maxCount)), to: name("big"), now: 0).channel
    #expect(
      Self.state(big, now: 0)
        == "STATE big count=2147483647 label=2147483647 dot=0 pulse=0 muted=0 seq=18446744073709551615 badge=count dnd=off unseen=2147483647 total=2147483647\n"
    )
  }

  @Test func linesAreAppended() throws {
    let mail = try Self.store().apply(.write(.incr(1)), to: name("mail"), now: 0).channel
    var out: [UInt8] = []
    ReplyEncoder.appendState(mail, kind: .state, now: 0, to: &out)
    ReplyEncoder.appendOK(to: &out)
    ReplyEncoder.appendData("badged 0.1.0 protocol=1", to: &out)
    ReplyEncoder.appendOK("pong", to: &out)
    #expect(
      String(decoding: out, as: UTF8.self) == """
        STATE mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1
        OK
        badged 0.1.0 protocol=1
        OK pong

        """)
  }

  @Test(arguments: ProtocolError.Code.allCases)
  func errorLines(_ code: ProtocolError.Code) {
    var out: [UInt8] = []
    ReplyEncoder.appendError(ProtocolError(code, "Something 'x' went wrong"), to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "ERR \(code.rawValue) Something 'x' went wrong\n")
  }

  @Test func anErrorMessageNeverSpansLines() {
    var out: [UInt8] = []
    ReplyEncoder.appendError(ProtocolError(.failed, "bad.conf:3: Oops\nand\r\nmore"), to: &out)
    #expect(String(decoding: out, as: UTF8.self) == #"ERR failed bad.conf:3: Oops\x0Aand\x0D\x0Amore"# + "\n")
  }

  @Test func controlCharactersInAMessageAreEscaped() {
    var out: [UInt8] = []
    // NUL, ESC [ 2 J (clear the screen), DEL, a backslash, CSI (U+009B), and characters that
    // are not controls: é (C3 A9), U+00A0 (C2 A0), •.
    let message = "Unknown command 'A\u{0}B\u{1B}[2J\u{7F}\\\u{9B}31m é\u{A0}•'"
    ReplyEncoder.appendError(ProtocolError(.unknownCommand, message), to: &out)
    #expect(
      String(decoding: out, as: UTF8.self)
        == #"ERR unknown-command Unknown command 'A\x00B\x1B[2J\x7F\\\u009B31m "# + "é\u{A0}•'\n")
    #expect(out.dropLast().allSatisfy { $0 >= 0x20 && $0 != 0x7F }, "no control byte is left")
  }

  @Test func exactErrorLines() {
    var out: [UInt8] = []
    ReplyEncoder.appendError(
      ProtocolError(.lineTooLong, "Line is longer than 4096 bytes; the rest of it was discarded"), to: &out)
    ReplyEncoder.appendError(ProtocolError(.badName, "Invalid channel name '.x'; \(namingRule)"), to: &out)
    #expect(
      String(decoding: out, as: UTF8.self) == """
        ERR line-too-long Line is longer than 4096 bytes; the rest of it was discarded
        ERR bad-name Invalid channel name '.x'; names are 1-64 characters from A-Z a-z 0-9 . _ - : starting with a letter or digit

        """)
  }

  /// The keys written as constants spell the settings' raw values.
  @Test func badgeAndDNDKeysAreTheRawValues() {
    for badge in BadgeCounts.allCases {
      #expect(ReplyEncoder.badgeKey(badge).description == " badge=\(badge.rawValue)")
    }
    #expect(ReplyEncoder.dndKey(nil).description == " dnd=off")
    for dnd in DNDBadges.allCases {
      #expect(ReplyEncoder.dndKey(dnd).description == " dnd=\(dnd.rawValue)")
    }
  }

  /// The longest line there can be fits the writer's buffer: a 64-byte name, every number at
  /// its largest, the longest label, a step.
  @Test func theLongestStateLineFits() throws {
    let longest = String(repeating: "n", count: ChannelName.maxLength)
    var config = DaemonConfig()
    config.sections = [
      ChannelSection(
        pattern: pattern(longest), override: SettingsOverride(maxLabel: 1, pulseMs: 3_600_000, step: Limits.maxCount),
        line: 1)
    ]
    let store = Store(config: config.channels)
    let channel = try store.apply(.write(.set(Limits.maxCount)), to: name(longest), now: 0).channel
    let line = Self.state(channel, .event, now: 0)
    #expect(
      line
        == "EVENT \(longest) count=2147483647 label=1+ dot=0 pulse=3600000 muted=0 seq=1 badge=count dnd=off unseen=2147483647 step=2147483647 total=2147483647\n"
    )
    #expect(
      line.utf8.count <= ReplyEncoder.maxStateLine - 20 - 9 - 9,
      "room for a 20-digit seq, a 19-digit total and a longer label")
  }
}
