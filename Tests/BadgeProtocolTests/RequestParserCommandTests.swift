import BadgeProtocol
import Testing

@testable import BadgeCore

/// Requests that parse: every command, in any case, with any spacing.
@Suite struct RequestParserCommandTests {
  static let table: [(String, Request)] = [
    ("HELLO", .hello), ("PING", .ping), ("LIST", .list), ("UNWATCH", .unwatch), ("QUIT", .quit),
    ("INCR mail", .write(name("mail"), .incr(1))),
    ("INCR mail 5", .write(name("mail"), .incr(5))),
    ("INCR mail 2147483647", .write(name("mail"), .incr(2_147_483_647))),
    ("INCR mail 0007", .write(name("mail"), .incr(7))),
    ("DECR mail", .write(name("mail"), .decr(1))),
    ("DECR app:mail.x 3", .write(name("app:mail.x"), .decr(3))),
    ("SET mail 0", .write(name("mail"), .set(0))),
    ("SET Mail 42", .write(name("Mail"), .set(42))),
    ("SET mail 2147483647", .write(name("mail"), .set(2_147_483_647))),
    ("CLEAR mail", .write(name("mail"), .clear(upTo: nil))),
    ("CLEAR *", .clearAll),
    ("GET " + String(repeating: "g", count: 64), .get(name(String(repeating: "g", count: 64)))),
    ("MUTE mail", .write(name("mail"), .mute)),
    ("STATS", .stats(.day, [])),
    ("STATS week", .stats(.week, [])),
    ("STATS Month mail", .stats(.month, [pattern("mail")])),
    ("STATS year mail app:*", .stats(.year, [pattern("mail"), pattern("app:*")])),
    ("STATS mail", .stats(.day, [pattern("mail")])),
    ("STATS day week", .stats(.day, [pattern("week")])),
    ("STATS fortnight", .stats(.day, [pattern("fortnight")])),
    ("UNMUTE mail", .write(name("mail"), .unmute)),
    ("CONFIGURE mail max_label=9", .configure(name("mail"), set: SettingsOverride(maxLabel: 9), reset: [])),
    (
      "CONFIGURE mail style=dot pulse_ms=0 muted=yes max_label=2147483647",
      .configure(
        name("mail"), set: SettingsOverride(maxLabel: 2_147_483_647, style: .dot, pulseMs: 0, muted: true), reset: [])
    ),
    (
      "CONFIGURE mail style=count muted=OFF pulse_ms=3600000",
      .configure(name("mail"), set: SettingsOverride(style: .count, pulseMs: 3_600_000, muted: false), reset: [])
    ),
    (
      "CONFIGURE mail max_label=default style=default",
      .configure(name("mail"), set: SettingsOverride(), reset: [.maxLabel, .style])
    ),
    (
      "CONFIGURE mail muted=default pulse_ms=250",
      .configure(name("mail"), set: SettingsOverride(pulseMs: 250), reset: [.muted])
    ),
    ("WATCH", .watch([])),
    ("WATCH mail", .watch([pattern("mail")])),
    ("WATCH mail app:* ?x *", .watch([pattern("mail"), pattern("app:*"), pattern("?x"), pattern("*")])),
    ("WATCH since=0", .watch([], since: 0)),
    ("WATCH since=42 mail app:*", .watch([pattern("mail"), pattern("app:*")], since: 42)),
    ("WATCH since=18446744073709551615 m", .watch([pattern("m")], since: UInt64.max)),
  ]

  @Test(arguments: table)
  func parses(_ line: String, _ request: Request) {
    #expect(parse(line) == .success(request))
  }

  @Test(arguments: table)
  func commandWordsIgnoreCase(_ line: String, _ request: Request) {
    let word = line.prefix { $0 != " " }
    let rest = line.dropFirst(word.count)
    let mixed = String(word.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
    let capitalized = String(word.prefix(1)) + word.dropFirst().lowercased()
    for spelling: String in [word.lowercased(), mixed, capitalized] {
      #expect(parse(spelling + rest) == .success(request), "\(spelling + rest)")
    }
  }

  @Test(arguments: table)
  func wordsAreSeparatedBySpacesAndTabs(_ line: String, _ request: Request) {
    let words = line.split(separator: " ")
    for (separator, edge) in [("\t", ""), ("   ", "  "), (" \t ", "\t"), ("\t\t", " \t")] {
      let spaced = edge + words.joined(separator: separator) + edge
      #expect(parse(spaced) == .success(request), "\(spaced.debugDescription)")
    }
  }

  @Test(arguments: [
    ("max_label=5 max_label=7", SettingsOverride(maxLabel: 7), [SettingKey]()),
    ("max_label=default max_label=5", SettingsOverride(maxLabel: 5), []),
    ("max_label=5 max_label=default", SettingsOverride(), [.maxLabel]),
    ("muted=yes style=dot muted=default style=count", SettingsOverride(style: .count), [.muted]),
  ])
  func theLastWordForAKeyWins(_ settings: String, _ set: SettingsOverride, _ reset: [SettingKey]) throws {
    #expect(parse("CONFIGURE mail " + settings) == .success(.configure(name("mail"), set: set, reset: reset)))
  }

  @Test func aResetThenASetOfOneKeyLeavesTheSetValueInTheStore() throws {
    let store = Store()
    guard
      case .success(.configure(let channel, let set, let reset)) = parse("CONFIGURE mail max_label=default max_label=5")
    else {
      Issue.record("did not parse")
      return
    }
    let outcome = try store.apply(.configure(set: set, reset: reset), to: channel, now: 0)
    #expect(outcome.channel.settings.maxLabel == 5)
  }

  @Test(arguments: ["", " ", "\t", "   \t  \t "])
  func blankLinesAreIgnored(_ line: String) {
    #expect(parse(line) == nil)
  }

  @Test func namesKeepTheirCase() {
    #expect(parse("get MAIL") == .success(.get(name("MAIL"))))
    #expect(parse("get MAIL") != .success(.get(name("mail"))))
  }

  @Test func everyCommandWordIsKnown() {
    #expect(
      Request.Command.all.map(\.word.description) == [
        "HELLO", "PING", "INCR", "DECR", "SET", "CLEAR", "GET", "LIST", "MUTE", "UNMUTE", "CONFIGURE", "WATCH",
        "UNWATCH", "RELOAD", "QUIT",
        "STATS", "SEEN", "PULSE", "DND", "BRIDGE", "MIRROR", "STALE", "FORWARDS", "DELIVERED", "SOURCES", "SOURCE",
      ])
    for command in Request.Command.all {
      let result = parse(command.word.description.lowercased())
      if case .failure(let error) = result {
        #expect(error.code != .unknownCommand, "\(command)")
      }
    }
  }

  @Test(arguments: [
    (Request.Command.hello, "HELLO"), (.ping, "PING"), (.incr, "INCR <channel> [n]"), (.decr, "DECR <channel> [n]"),
    (.set, "SET <channel> <n>"), (.clear, "CLEAR <channel> [upto=<total>] | CLEAR *"), (.get, "GET <channel>"),
    (.list, "LIST"),
    (.mute, "MUTE <channel>"), (.unmute, "UNMUTE <channel>"),
    (.configure, "CONFIGURE <channel> <key>=<value|default> ..."),
    (.watch, "WATCH [since=<seq>] [<channel or glob> ...]"), (.unwatch, "UNWATCH"), (.quit, "QUIT"),
  ])
  func usageLines(_ command: Request.Command, _ usage: String) {
    #expect(command.usage == usage)
  }

  @Test func protocolFacts() {
    #expect(ProtocolInfo.version == 1)
    #expect(ProtocolInfo.maxLineLength == 4096)
  }
}
