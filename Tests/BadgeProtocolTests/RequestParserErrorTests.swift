import BadgeCore
import BadgeProtocol
import Testing

/// Requests that are refused, with their error code and whole message.
@Suite struct RequestParserErrorTests {
  static let long = String(repeating: "n", count: 65)
  static let cut = String(repeating: "n", count: 64) + "…"
  static let fromOne = "expected a whole number from 1 to 2147483647"
  static let fromZero = "expected a whole number from 0 to 2147483647"
  static let keys = "max_label, style, pulse_ms, muted, badge, dnd, step, export"

  static let table: [(String, ProtocolError.Code, String)] = [
    ("FOO", .unknownCommand, "Unknown command 'FOO'"),
    ("INC mail", .unknownCommand, "Unknown command 'INC'"),
    ("INCRE mail", .unknownCommand, "Unknown command 'INCRE'"),
    ("INCR@ mail", .unknownCommand, "Unknown command 'INCR@'"),
    ("ÎNCR mail", .unknownCommand, "Unknown command 'ÎNCR'"),
    ("*", .unknownCommand, "Unknown command '*'"),
    (long, .unknownCommand, "Unknown command '\(cut)'"),

    ("INCR", .badArguments, "Missing channel; usage: INCR <channel> [n]"),
    ("DECR", .badArguments, "Missing channel; usage: DECR <channel> [n]"),
    ("SET", .badArguments, "Missing channel; usage: SET <channel> <n>"),
    (
      "WATCH since=1e3 mail", .badArguments,
      "Invalid since '1e3'; expected a sequence number, a whole number from 0; "
        + "usage: WATCH [since=<seq>] [<channel or glob> ...]"
    ),
    ("SET mail", .badArguments, "Missing count; usage: SET <channel> <n>"),
    ("CLEAR", .badArguments, "Missing channel; usage: CLEAR <channel> [upto=<total>] | CLEAR *"),
    ("GET", .badArguments, "Missing channel; usage: GET <channel>"),
    ("MUTE", .badArguments, "Missing channel; usage: MUTE <channel>"),
    ("UNMUTE", .badArguments, "Missing channel; usage: UNMUTE <channel>"),
    ("CONFIGURE", .badArguments, "Missing channel; usage: CONFIGURE <channel> <key>=<value|default> ..."),
    ("CONFIGURE mail", .badArguments, "Missing setting; usage: CONFIGURE <channel> <key>=<value|default> ..."),
    ("HELLO 1", .badArguments, "Unexpected argument '1'; usage: HELLO"),
    ("PING now", .badArguments, "Unexpected argument 'now'; usage: PING"),
    ("LIST all", .badArguments, "Unexpected argument 'all'; usage: LIST"),
    ("UNWATCH mail", .badArguments, "Unexpected argument 'mail'; usage: UNWATCH"),
    ("QUIT now", .badArguments, "Unexpected argument 'now'; usage: QUIT"),
    ("INCR mail 1 2", .badArguments, "Unexpected argument '2'; usage: INCR <channel> [n]"),
    ("DECR mail 1 x", .badArguments, "Unexpected argument 'x'; usage: DECR <channel> [n]"),
    ("SET mail 1 2", .badArguments, "Unexpected argument '2'; usage: SET <channel> <n>"),
    ("CLEAR * mail", .badArguments, "Unexpected argument 'mail'; usage: CLEAR <channel> [upto=<total>] | CLEAR *"),
    ("CLEAR mail chat", .badArguments, "Unexpected argument 'chat'; usage: CLEAR <channel> [upto=<total>] | CLEAR *"),
    ("GET a b", .badArguments, "Unexpected argument 'b'; usage: GET <channel>"),
    ("MUTE a b", .badArguments, "Unexpected argument 'b'; usage: MUTE <channel>"),
    ("UNMUTE a b", .badArguments, "Unexpected argument 'b'; usage: UNMUTE <channel>"),
    ("PING " + long, .badArguments, "Unexpected argument '\(cut)'; usage: PING"),

    (
      "STATS @week", .badArguments,
      "'@week' is neither a period (day, week, month, year) nor a channel or pattern; usage: STATS "
        + "[day|week|month|year] [<channel or glob> ...]"
    ),
    ("STATS week m@il", .badName, "Invalid channel or pattern 'm@il'; \(namingRule), or * and ?"),
    ("STATS mail .x", .badName, "Invalid channel or pattern '.x'; \(namingRule), or * and ?"),
    ("INCR .mail", .badName, "Invalid channel name '.mail'; \(namingRule)"),
    ("DECR a/b", .badName, "Invalid channel name 'a/b'; \(namingRule)"),
    ("SET mail* 1", .badName, "Invalid channel name 'mail*'; \(namingRule)"),
    ("CLEAR ma*l", .badName, "Invalid channel name 'ma*l'; \(namingRule)"),
    ("CLEAR **", .badName, "Invalid channel name '**'; \(namingRule)"),
    ("GET " + long, .badName, "Invalid channel name '\(cut)'; \(namingRule)"),
    ("MUTE café", .badName, "Invalid channel name 'café'; \(namingRule)"),
    ("UNMUTE -x", .badName, "Invalid channel name '-x'; \(namingRule)"),
    ("CONFIGURE _x style=dot", .badName, "Invalid channel name '_x'; \(namingRule)"),
    ("INCR .bad x", .badName, "Invalid channel name '.bad'; \(namingRule)"),
    ("WATCH mail a/b", .badName, "Invalid channel or pattern 'a/b'; \(namingRule), or * and ?"),
    ("WATCH .mail", .badName, "Invalid channel or pattern '.mail'; \(namingRule), or * and ?"),
    ("WATCH mail since=3", .badName, "Invalid channel or pattern 'since=3'; \(namingRule), or * and ?"),
    ("WATCH " + long, .badName, "Invalid channel or pattern '\(cut)'; \(namingRule), or * and ?"),

    ("INCR mail x", .badNumber, "Invalid number 'x'; \(fromOne)"),
    ("INCR mail 0", .badNumber, "Invalid number '0'; \(fromOne)"),
    ("DECR mail 0", .badNumber, "Invalid number '0'; \(fromOne)"),
    ("INCR mail 000", .badNumber, "Invalid number '000'; \(fromOne)"),
    ("INCR mail -1", .badNumber, "Invalid number '-1'; \(fromOne)"),
    ("INCR mail +1", .badNumber, "Invalid number '+1'; \(fromOne)"),
    ("DECR mail 1.5", .badNumber, "Invalid number '1.5'; \(fromOne)"),
    ("SET mail x", .badNumber, "Invalid number 'x'; \(fromZero)"),
    ("SET mail -0", .badNumber, "Invalid number '-0'; \(fromZero)"),
    ("SET mail 1e3", .badNumber, "Invalid number '1e3'; \(fromZero)"),
    ("SET mail ３", .badNumber, "Invalid number '３'; \(fromZero)"),

    ("INCR mail 2147483648", .outOfRange, "'2147483648' is over the largest count, 2147483647"),
    ("DECR mail 9223372036854775807", .outOfRange, "'9223372036854775807' is over the largest count, 2147483647"),
    ("SET mail 2147483648", .outOfRange, "'2147483648' is over the largest count, 2147483647"),
    (
      "SET mail 123456789012345678901234567890", .outOfRange,
      "'123456789012345678901234567890' is over the largest count, 2147483647"
    ),
    ("INCR mail 99999999999999999999", .outOfRange, "'99999999999999999999' is over the largest count, 2147483647"),

    ("CONFIGURE mail max_label", .badSetting, "Expected key=value, got 'max_label'"),
    ("CONFIGURE mail style=dot muted", .badSetting, "Expected key=value, got 'muted'"),
    ("CONFIGURE mail colour=red", .badSetting, "Unknown setting 'colour'; expected one of \(keys)"),
    ("CONFIGURE mail MAX_LABEL=5", .badSetting, "Unknown setting 'MAX_LABEL'; expected one of \(keys)"),
    ("CONFIGURE mail =5", .badSetting, "Unknown setting ''; expected one of \(keys)"),
    (
      "CONFIGURE mail max_label=0", .badSetting,
      "Invalid value '0' for max_label: expected a number from 1 to 2147483647"
    ),
    (
      "CONFIGURE mail max_label=2147483648", .badSetting,
      "Invalid value '2147483648' for max_label: expected a number from 1 to 2147483647"
    ),
    ("CONFIGURE mail max_label=", .badSetting, "Invalid value '' for max_label: expected a whole number"),
    (
      "CONFIGURE mail pulse_ms=3600001", .badSetting,
      "Invalid value '3600001' for pulse_ms: expected a number from 0 to 3600000"
    ),
    ("CONFIGURE mail pulse_ms=-1", .badSetting, "Invalid value '-1' for pulse_ms: expected a whole number"),
    ("CONFIGURE mail style=bar", .badSetting, "Invalid value 'bar' for style: expected 'count' or 'dot'"),
    ("CONFIGURE mail style=DOT", .badSetting, "Invalid value 'DOT' for style: expected 'count' or 'dot'"),
    ("CONFIGURE mail muted=maybe", .badSetting, "Invalid value 'maybe' for muted: expected yes or no"),
    ("CONFIGURE mail style=dot max_label=x", .badSetting, "Invalid value 'x' for max_label: expected a whole number"),
    ("CONFIGURE mail style==dot", .badSetting, "Invalid value '=dot' for style: expected 'count' or 'dot'"),
    ("CONFIGURE mail style=Default", .badSetting, "Invalid value 'Default' for style: expected 'count' or 'dot'"),
  ]

  @Test(arguments: table)
  func isRefused(_ line: String, _ code: ProtocolError.Code, _ message: String) {
    #expect(parse(line) == .failure(ProtocolError(code, message)))
  }

  static let badUTF8: [[UInt8]] = [
    [0xFF], [0x80], bytes("INCR mail") + [0xC3], bytes("INCR ") + [0xC0, 0x80], bytes("GET ") + [0xED, 0xA0, 0x80],
    bytes("SET mail 1") + [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82] + bytes(" PING"), bytes("PING") + [0xFE],
  ]

  @Test(arguments: badUTF8)
  func invalidUTF8IsRefusedBeforeAnythingElse(_ line: [UInt8]) {
    #expect(parse(line) == .failure(ProtocolError(.badUTF8, "The request is not valid UTF-8")))
  }

  @Test func validNonASCIIIsNotAnEncodingError() {
    #expect(parse(bytes("GET é")) == .failure(ProtocolError(.badName, "Invalid channel name 'é'; \(namingRule)")))
    #expect(parse(bytes("PING •")) == .failure(ProtocolError(.badArguments, "Unexpected argument '•'; usage: PING")))
  }

  @Test func everyCodeHasItsWord() {
    #expect(
      ProtocolError.Code.allCases.map(\.rawValue) == [
        "unknown-command", "bad-arguments", "bad-name", "bad-number", "out-of-range", "bad-setting",
        "line-too-long", "bad-utf8", "failed", "busy", "full", "too-many-patterns", "timeout", "denied",
        "id-reused", "not-bridge", "bridge-taken", "local-channel", "mirrored", "sources-taken", "not-sources",
        "claimed", "sourced",
      ])
  }

  @Test func errorsDescribeThemselvesAsCodeAndMessage() {
    #expect(ProtocolError(.badName, "Invalid channel name 'x'").description == "bad-name Invalid channel name 'x'")
    #expect(ProtocolError(.failed, "").description == "failed ")
  }

  @Test func parserCodesCoverAllButTheDaemonsOwn() {
    // line-too-long comes from the line reader, and failed, the limits' codes, id-reused
    // (which needs the saved ids) and the bridge's codes (which need the daemon's state) from
    // the daemon; every other code is one the parser gives.
    var seen = Set(Self.table.map { $0.1.rawValue })
    seen.insert(ProtocolError.Code.badUTF8.rawValue)
    let expected = Set(ProtocolError.Code.allCases.map(\.rawValue)).subtracting([
      "line-too-long", "failed", "busy", "full", "too-many-patterns", "timeout", "denied", "id-reused",
      "not-bridge", "bridge-taken", "local-channel", "mirrored", "sources-taken", "not-sources", "claimed", "sourced",
    ])
    #expect(seen == expected)
  }
}
