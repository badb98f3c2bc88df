import BadgeConfig
import Testing

@testable import BadgeCore

/// `DaemonConfig.parse` over entries as the INI reader hands them out.
@Suite struct DaemonConfigTests {
  static func entries(_ items: [(section: String, key: String, value: String)]) -> [ConfigEntry] {
    items.enumerated().map { ConfigEntry(section: $1.section, key: $1.key, value: $1.value, line: $0 + 2) }
  }

  static func parse(_ items: [(section: String, key: String, value: String)]) throws(ConfigError) -> DaemonConfig {
    try DaemonConfig.parse(entries(items), file: "badged.conf")
  }

  /// The message the first entry of `items` (on line 2) is refused with.
  static func failure(_ items: [(section: String, key: String, value: String)]) -> String? {
    do {
      _ = try parse(items)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func noEntriesGiveTheDefaults() throws {
    let config = try Self.parse([])
    #expect(config == DaemonConfig())
    #expect(config.defaults == ChannelSettings(maxLabel: 99, style: .count, pulseMs: 3000, muted: false))
    #expect(config.sections.isEmpty)
  }

  @Test func daemonKeysSetTheDefaults() throws {
    let config = try Self.parse([("daemon", "pulse_ms", "1500"), ("daemon", "max_label", "9")])
    #expect(config.defaults == ChannelSettings(maxLabel: 9, style: .count, pulseMs: 1500, muted: false))
    #expect(config.settings(for: name("any")).settings == config.defaults)
    #expect(!config.settings(for: name("any")).matched)
  }

  @Test func channelKeysMakeASection() throws {
    let config = try Self.parse([
      ("channel mail", "max_label", "50"), ("channel mail", "style", "dot"),
      ("channel mail", "pulse_ms", "0"), ("channel mail", "muted", "yes"),
    ])
    #expect(
      config.sections == [
        ChannelSection(
          pattern: ChannelPattern("mail")!,
          override: SettingsOverride(maxLabel: 50, style: .dot, pulseMs: 0, muted: true), line: 2)
      ])
    let (settings, matched) = config.settings(for: name("mail"))
    #expect(matched)
    #expect(settings == ChannelSettings(maxLabel: 50, style: .dot, pulseMs: 0, muted: true))
  }

  @Test func extraSpacesInTheSectionNameAreIgnored() throws {
    let config = try Self.parse([("channel   app:*", "muted", "on")])
    #expect(config.sections.first?.pattern == ChannelPattern("app:*"))
  }

  @Test func theMQTTSectionIsLeftToTheBridge() throws {
    // badged-mqtt reads and checks [mqtt]; the daemon takes a file with one as if it had none,
    // whatever its keys, and still checks everything else.
    let config = try Self.parse([
      ("mqtt", "broker", "mqtts://broker.lan:8883"), ("mqtt", "share", "mail ci*"), ("mqtt", "anything", "at all"),
      ("daemon", "pulse_ms", "1500"),
    ])
    var expected = DaemonConfig()
    expected.defaults.pulseMs = 1500
    #expect(config == expected)
    #expect(
      Self.failure([("mqtt", "broker", "x"), ("daemon", "pulse_ms", "x")])
        == "badged.conf:3: Invalid value 'x' for pulse_ms: expected a whole number")
    #expect(Self.failure([("MQTT", "broker", "x")])?.hasPrefix("badged.conf:2: Unknown section [MQTT]") == true)
  }

  @Test func theSourceSectionsAreLeftToTheSourcesProgram() throws {
    // badged-sources reads and checks [source.*]; a typo there never stops the daemon.
    let config = try Self.parse([
      ("source.mail", "kind", "maildir"), ("source.mail", "fodlers", "INBOX"), ("source.x", "kind", "no such kind"),
      ("daemon", "pulse_ms", "1500"),
    ])
    var expected = DaemonConfig()
    expected.defaults.pulseMs = 1500
    #expect(config == expected)
    #expect(
      Self.failure([("source.mail", "kind", "x"), ("daemon", "pulse_ms", "x")])
        == "badged.conf:3: Invalid value 'x' for pulse_ms: expected a whole number")
    #expect(Self.failure([("source.", "kind", "x")])?.hasPrefix("badged.conf:2: Unknown section [source.]") == true)
    #expect(Self.failure([("sources", "kind", "x")])?.hasPrefix("badged.conf:2: Unknown section [sources]") == true)
  }

  @Test func theWebSectionIsLeftToBadgedWeb() throws {
    // badged-web reads and checks [web]; the daemon takes a file with one as if it had none.
    let config = try Self.parse([
      ("web", "listen", "0.0.0.0:80"), ("web", "keepalive", "not a number"), ("web", "anything", "at all"),
      ("daemon", "pulse_ms", "1500"),
    ])
    var expected = DaemonConfig()
    expected.defaults.pulseMs = 1500
    #expect(config == expected)
    #expect(
      Self.failure([("web", "listen", "x"), ("daemon", "pulse_ms", "x")])
        == "badged.conf:3: Invalid value 'x' for pulse_ms: expected a whole number")
    #expect(Self.failure([("Web", "listen", "x")])?.hasPrefix("badged.conf:2: Unknown section [Web]") == true)
  }

  @Test func theTraySectionIsLeftToTheTray() throws {
    // badged-tray reads and checks [tray]; the daemon takes a file with one as if it had none.
    let config = try Self.parse([
      ("tray", "items", "mail chat:*"), ("tray", "badge_colour", "not a colour"), ("tray", "anything", "at all"),
      ("daemon", "pulse_ms", "1500"),
    ])
    var expected = DaemonConfig()
    expected.defaults.pulseMs = 1500
    #expect(config == expected)
    #expect(
      Self.failure([("tray", "items", "x"), ("daemon", "pulse_ms", "x")])
        == "badged.conf:3: Invalid value 'x' for pulse_ms: expected a whole number")
    #expect(Self.failure([("Tray", "items", "x")])?.hasPrefix("badged.conf:2: Unknown section [Tray]") == true)
  }

  @Test(arguments: ["yes", "true", "on", "1", "YES", "True"])
  func trueBooleans(_ value: String) throws {
    #expect(try Self.parse([("channel mail", "muted", value)]).sections.first?.override.muted == true)
  }

  @Test(arguments: ["no", "false", "off", "0", "NO", "Off"])
  func falseBooleans(_ value: String) throws {
    #expect(try Self.parse([("channel mail", "muted", value)]).sections.first?.override.muted == false)
  }

  @Test func valueBoundsAreAccepted() throws {
    let config = try Self.parse([
      ("daemon", "pulse_ms", "0"), ("daemon", "max_label", "1"),
      ("channel a", "pulse_ms", "3600000"), ("channel a", "max_label", "2147483647"),
    ])
    #expect(config.defaults.pulseMs == 0)
    #expect(config.defaults.maxLabel == 1)
    #expect(config.sections.first?.override == SettingsOverride(maxLabel: 2_147_483_647, pulseMs: 3_600_000))
  }

  @Test(arguments: [
    (
      "daemon", "pulse_ms", "3600001",
      "badged.conf:2: Invalid value '3600001' for pulse_ms: expected a number from 0 to 3600000"
    ),
    ("daemon", "pulse_ms", "-1", "badged.conf:2: Invalid value '-1' for pulse_ms: expected a whole number"),
    ("daemon", "pulse_ms", "", "badged.conf:2: Invalid value '' for pulse_ms: expected a whole number"),
    (
      "daemon", "max_label", "0",
      "badged.conf:2: Invalid value '0' for max_label: expected a number from 1 to 2147483647"
    ),
    (
      "daemon", "max_label", "2147483648",
      "badged.conf:2: Invalid value '2147483648' for max_label: expected a number from 1 to 2147483647"
    ),
    ("daemon", "max_label", "ninety", "badged.conf:2: Invalid value 'ninety' for max_label: expected a whole number"),
    (
      "daemon", "style", "dot",
      "badged.conf:2: Unknown key 'style' in [daemon]; expected one of pulse_ms, max_label, sync, dnd_badges, "
        + "hook_interval_ms, hook_timeout_ms, hooks_when_muted, hooks_max_running, on_increase, on_decrease, on_zero, on_pulse_end"
    ),
    (
      "daemon", "Pulse_ms", "5",
      "badged.conf:2: Unknown key 'Pulse_ms' in [daemon]; expected one of pulse_ms, max_label, sync, dnd_badges, "
        + "hook_interval_ms, hook_timeout_ms, hooks_when_muted, hooks_max_running, on_increase, on_decrease, on_zero, on_pulse_end"
    ),
    ("channel mail", "style", "bar", "badged.conf:2: Invalid value 'bar' for style: expected 'count' or 'dot'"),
    ("channel mail", "muted", "maybe", "badged.conf:2: Invalid value 'maybe' for muted: expected yes or no"),
    (
      "channel mail", "max_label", "0",
      "badged.conf:2: Invalid value '0' for max_label: expected a number from 1 to 2147483647"
    ),
    (
      "channel mail", "pulse_ms", "4000000",
      "badged.conf:2: Invalid value '4000000' for pulse_ms: expected a number from 0 to 3600000"
    ),
    (
      "channel mail", "colour", "red",
      "badged.conf:2: Unknown key 'colour' in [channel mail]; expected one of max_label, style, pulse_ms, muted, "
        + "badge, dnd, step, export, on_increase, on_decrease, on_zero, on_pulse_end"
    ),
    ("channel a/b", "muted", "yes", "badged.conf:2: Invalid channel name or pattern 'a/b' in [channel a/b]"),
    ("channel .mail", "muted", "yes", "badged.conf:2: Invalid channel name or pattern '.mail' in [channel .mail]"),
    (
      "channel " + String(repeating: "x", count: 65), "muted", "yes",
      "badged.conf:2: Invalid channel name or pattern '\(String(repeating: "x", count: 65))' in [channel "
        + "\(String(repeating: "x", count: 65))]"
    ),
    (
      "", "pulse_ms", "5",
      "badged.conf:2: Key 'pulse_ms' is outside any section; put it under [daemon], [limits], [bridge], "
        + "[notifications], [mqtt], [tray], [web] or [channel NAME]"
    ),
    (
      "daemons", "pulse_ms", "5",
      "badged.conf:2: Unknown section [daemons]; expected [daemon], [limits], [bridge], [notifications], [mqtt], "
        + "[tray], [web] or [channel NAME]"
    ),
    (
      "Daemon", "pulse_ms", "5",
      "badged.conf:2: Unknown section [Daemon]; expected [daemon], [limits], [bridge], [notifications], [mqtt], "
        + "[tray], [web] or [channel NAME]"
    ),
    (
      "channel", "muted", "yes",
      "badged.conf:2: Unknown section [channel]; expected [daemon], [limits], [bridge], [notifications], [mqtt], "
        + "[tray], [web] or [channel NAME]"
    ),
    (
      "channel a b", "muted", "yes",
      "badged.conf:2: Unknown section [channel a b]; expected [daemon], [limits], [bridge], [notifications], "
        + "[mqtt], [tray], [web] or [channel NAME]"
    ),
    (
      "channels mail", "muted", "yes",
      "badged.conf:2: Unknown section [channels mail]; expected [daemon], [limits], [bridge], [notifications], "
        + "[mqtt], [tray], [web] or [channel NAME]"
    ),
    (
      "daemon", "on_increase", "say 'hi",
      "badged.conf:2: Invalid value 'say 'hi' for on_increase: a ' quote is not closed"
    ),
    (
      "channel mail", "on_zero", #"x \"#,
      #"badged.conf:2: Invalid value 'x \' for on_zero: it ends in a lone backslash"#
    ),
    (
      "daemon", "dnd_badges", "blur",
      "badged.conf:2: Invalid value 'blur' for dnd_badges: expected 'hide', 'dim' or 'show'"
    ),
    (
      "daemon", "hook_interval_ms", "-1",
      "badged.conf:2: Invalid value '-1' for hook_interval_ms: expected a whole number"
    ),
    (
      "daemon", "hook_timeout_ms", "0",
      "badged.conf:2: Invalid value '0' for hook_timeout_ms: expected a number from 1 to 3600000"
    ),
    (
      "daemon", "hooks_when_muted", "maybe",
      "badged.conf:2: Invalid value 'maybe' for hooks_when_muted: expected yes or no"
    ),
    (
      "daemon", "hooks_max_running", "0",
      "badged.conf:2: Invalid value '0' for hooks_max_running: expected a number from 1 to 1024"
    ),
    (
      "daemon", "hooks_max_running", "1025",
      "badged.conf:2: Invalid value '1025' for hooks_max_running: expected a number from 1 to 1024"
    ),
    (
      "daemon", "hooks_max_running", "eight",
      "badged.conf:2: Invalid value 'eight' for hooks_max_running: expected a whole number"
    ),
    (
      "daemon", "hooks_max_running", "",
      "badged.conf:2: Invalid value '' for hooks_max_running: expected a whole number"
    ),
    (
      "channel mail", "hooks_max_running", "4",
      "badged.conf:2: Unknown key 'hooks_max_running' in [channel mail]; expected one of max_label, style, "
        + "pulse_ms, muted, badge, dnd, step, export, on_increase, on_decrease, on_zero, on_pulse_end"
    ),
    ("channel mail", "badge", "new", "badged.conf:2: Invalid value 'new' for badge: expected 'count' or 'unseen'"),
    ("channel mail", "dnd", "always", "badged.conf:2: Invalid value 'always' for dnd: expected 'obey' or 'ignore'"),
    (
      "channel mail", "hook_interval_ms", "5",
      "badged.conf:2: Unknown key 'hook_interval_ms' in [channel mail]; expected one of max_label, style, "
        + "pulse_ms, muted, badge, dnd, step, export, on_increase, on_decrease, on_zero, on_pulse_end"
    ),
  ])
  func badEntriesAreRefusedWithTheirPlace(_ section: String, _ key: String, _ value: String, _ message: String) {
    #expect(Self.failure([(section, key, value)]) == message)
  }

  @Test func theFirstBadEntryIsReportedWithItsOwnLine() throws {
    let entries = [
      ConfigEntry(section: "daemon", key: "pulse_ms", value: "100", line: 3),
      ConfigEntry(section: "channel mail", key: "muted", value: "yes", line: 7),
      ConfigEntry(section: "channel mail", key: "style", value: "square", line: 12),
      ConfigEntry(section: "daemon", key: "nope", value: "1", line: 15),
    ]
    #expect(
      throws: ConfigError(
        file: "/etc/b.conf", line: 12, reason: "Invalid value 'square' for style: expected 'count' or 'dot'")
    ) {
      try DaemonConfig.parse(entries, file: "/etc/b.conf")
    }
  }

  @Test func errorsRenderAsFileLineReason() {
    #expect(ConfigError(file: "a.conf", line: 4, reason: "Bad").description == "a.conf:4: Bad")
    #expect(ConfigError(file: "a.conf", line: 0, reason: "Failed to open").description == "a.conf: Failed to open")
  }

  @Test func laterValuesOfAKeyWin() throws {
    let config = try Self.parse([("daemon", "pulse_ms", "100"), ("daemon", "pulse_ms", "200")])
    #expect(config.defaults.pulseMs == 200)
  }

  @Test func repeatedSectionsMergeIntoTheFirst() throws {
    let config = try Self.parse([
      ("channel mail", "max_label", "5"), ("channel chat", "style", "dot"),
      ("channel mail", "muted", "yes"), ("channel mail", "max_label", "7"),
    ])
    #expect(config.sections.map(\.pattern.description) == ["mail", "chat"])
    #expect(config.sections[0].override == SettingsOverride(maxLabel: 7, muted: true))
    #expect(config.sections[0].line == 2, "a section keeps the line of its first key")
    #expect(config.sections[1].line == 3)
  }

  @Test func anExactSectionBeatsGlobsWhateverTheOrder() throws {
    for exactFirst in [true, false] {
      let exact = [("channel mail", "max_label", "5")]
      let globs = [("channel m*", "max_label", "50"), ("channel *", "max_label", "500"), ("channel *", "style", "dot")]
      let config = try Self.parse(exactFirst ? exact + globs : globs + exact)
      let (settings, matched) = config.settings(for: name("mail"))
      #expect(matched)
      #expect(settings.maxLabel == 5, "exact first: \(exactFirst)")
      #expect(settings.style == .dot, "glob values the exact section leaves unset still apply")
    }
  }

  @Test func laterGlobsBeatEarlierOnes() throws {
    let config = try Self.parse([
      ("channel *", "max_label", "500"), ("channel app:*", "max_label", "50"), ("channel *", "pulse_ms", "10"),
    ])
    #expect(config.settings(for: name("app:x")).settings.maxLabel == 50)
    #expect(config.settings(for: name("app:x")).settings.pulseMs == 10)
    #expect(config.settings(for: name("mail")).settings.maxLabel == 500)
  }

  @Test func sectionsBuildOnTheDaemonDefaults() throws {
    let config = try Self.parse([
      ("channel mail", "style", "dot"), ("daemon", "max_label", "9"), ("daemon", "pulse_ms", "1"),
    ])
    #expect(
      config.settings(for: name("mail")).settings == ChannelSettings(maxLabel: 9, style: .dot, pulseMs: 1, muted: false)
    )
    let other = config.settings(for: name("chat"))
    #expect(!other.matched)
    #expect(other.settings == ChannelSettings(maxLabel: 9, style: .count, pulseMs: 1, muted: false))
  }

  @Test func aGlobThatMatchesNothingLeavesChannelsAlone() throws {
    let config = try Self.parse([("channel work:*", "muted", "yes")])
    let (settings, matched) = config.settings(for: name("mail"))
    #expect(!matched)
    #expect(!settings.muted)
  }
}
