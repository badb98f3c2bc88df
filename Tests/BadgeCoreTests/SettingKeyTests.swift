import Testing

@testable import BadgeCore

@Suite struct SettingKeyTests {
  /// Why `body` refused its value, or `nil` when it did not.
  func reason(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return (error as? SettingKey.InvalidValue)?.reason ?? "unexpected \(error)"
    }
  }

  @Test func keysAreTheConfigFileWords() {
    #expect(
      SettingKey.allCases.map(\.rawValue) == [
        "max_label", "style", "pulse_ms", "muted", "badge", "dnd", "step", "export",
      ])
  }

  @Test(arguments: [
    ("yes", true), ("YES", true), ("true", true), ("True", true), ("on", true), ("ON", true), ("1", true),
    ("no", false), ("No", false), ("false", false), ("FALSE", false), ("off", false), ("Off", false), ("0", false),
  ])
  func booleansInAnyCase(_ text: String, _ value: Bool) throws {
    #expect(try SettingKey.boolean(text) == value)
  }

  @Test(arguments: ["", "y", "n", "2", "yes please", " yes", "enabled"])
  func otherBooleansAreRefused(_ text: String) {
    #expect(reason { _ = try SettingKey.boolean(text) } == "expected yes or no")
  }

  @Test func integersWithinTheirRange() throws {
    #expect(try SettingKey.integer("1", in: 1...5) == 1)
    #expect(try SettingKey.integer("5", in: 1...5) == 5)
    #expect(reason { _ = try SettingKey.integer("0", in: 1...5) } == "expected a number from 1 to 5")
    #expect(reason { _ = try SettingKey.integer("6", in: 1...5) } == "expected a number from 1 to 5")
    for text in ["", "-1", "+1", "1.5", "five", "99999999999999999999999"] {
      #expect(reason { _ = try SettingKey.integer(text, in: 1...5) } == "expected a whole number", "'\(text)'")
    }
  }

  @Test func parseSetsOnlyItsOwnField() throws {
    var override = SettingsOverride()
    try SettingKey.maxLabel.parse("9", into: &override)
    #expect(override == SettingsOverride(maxLabel: 9))
    try SettingKey.style.parse("dot", into: &override)
    try SettingKey.pulseMs.parse("0", into: &override)
    try SettingKey.muted.parse("yes", into: &override)
    #expect(override == SettingsOverride(maxLabel: 9, style: .dot, pulseMs: 0, muted: true))
  }

  @Test func valueLimits() throws {
    var override = SettingsOverride()
    try SettingKey.maxLabel.parse("2147483647", into: &override)
    try SettingKey.pulseMs.parse("3600000", into: &override)
    #expect(override == SettingsOverride(maxLabel: 2_147_483_647, pulseMs: 3_600_000))
    #expect(reason { try SettingKey.maxLabel.parse("0", into: &override) } == "expected a number from 1 to 2147483647")
    #expect(
      reason { try SettingKey.maxLabel.parse("2147483648", into: &override) }
        == "expected a number from 1 to 2147483647")
    #expect(
      reason { try SettingKey.pulseMs.parse("3600001", into: &override) } == "expected a number from 0 to 3600000")
    #expect(reason { try SettingKey.style.parse("Dot", into: &override) } == "expected 'count' or 'dot'")
    #expect(
      override == SettingsOverride(maxLabel: 2_147_483_647, pulseMs: 3_600_000), "a refused value changes nothing")
  }

  @Test(arguments: [
    (SettingKey.maxLabel, SettingsOverride(style: .dot, pulseMs: 0, muted: true)),
    (.style, SettingsOverride(maxLabel: 9, pulseMs: 0, muted: true)),
    (.pulseMs, SettingsOverride(maxLabel: 9, style: .dot, muted: true)),
    (.muted, SettingsOverride(maxLabel: 9, style: .dot, pulseMs: 0)),
  ])
  func resetClearsOnlyItsOwnField(_ key: SettingKey, _ expected: SettingsOverride) {
    var override = SettingsOverride(maxLabel: 9, style: .dot, pulseMs: 0, muted: true)
    key.reset(in: &override)
    #expect(override == expected)
  }

  @Test func formatWritesWhatParseReads() throws {
    let settings = ChannelSettings(maxLabel: 9, style: .dot, pulseMs: 250, muted: true, export: "org.example.app")
    #expect(
      SettingKey.allCases.map { $0.format(settings) } == [
        "9", "dot", "250", "yes", "count", "obey", "1", "org.example.app",
      ])
    #expect(SettingKey.muted.format(.defaults) == "no")
    var override = SettingsOverride()
    for key in SettingKey.allCases { try key.parse(key.format(settings), into: &override) }
    #expect(override.applied(to: .defaults) == settings)
  }

  @Test func overridesLayer() {
    let base = ChannelSettings.defaults
    #expect(SettingsOverride().isEmpty)
    #expect(!SettingsOverride(muted: false).isEmpty)
    #expect(SettingsOverride().applied(to: base) == base)
    #expect(
      SettingsOverride(maxLabel: 5).applied(to: base)
        == ChannelSettings(maxLabel: 5, style: .count, pulseMs: 3000, muted: false))
    let merged = SettingsOverride(maxLabel: 5, style: .dot).merged(with: SettingsOverride(maxLabel: 7, muted: true))
    #expect(merged == SettingsOverride(maxLabel: 7, style: .dot, muted: true))
  }

  /// Settings that differ from the defaults in every key.
  static let elsewhere = ChannelSettings(
    maxLabel: 9, style: .dot, pulseMs: 250, muted: true, badge: .unseen, dnd: .ignore, step: 4,
    export: "org.example.app")

  /// Each key's description reaches its own fields and no other: parsing, `applied`,
  /// `merged`, reset, its place among an override's values and `[daemon]`-style parsing into
  /// settings.
  @Test(arguments: SettingKey.allCases)
  func eachKeyReachesItsOwnFieldsOnly(_ key: SettingKey) throws {
    var override = SettingsOverride.empty
    try key.parse(key.format(Self.elsewhere), into: &override)
    let applied = override.applied(to: .defaults)
    for other in SettingKey.allCases {
      #expect(
        other.format(applied) == (other == key ? other.format(Self.elsewhere) : other.format(.defaults)), "\(other)")
    }
    #expect(override.values.map(\.key) == [key])
    #expect(SettingsOverride.empty.merged(with: override) == override)
    #expect(override.merged(with: .empty) == override)
    var settings = ChannelSettings.defaults
    try key.parse(key.format(Self.elsewhere), into: &settings)
    #expect(settings == applied)
    key.reset(in: &override)
    #expect(override.isEmpty)
  }

  @Test func keysAreFoundByTheirWordsOnly() {
    #expect(SettingKey.allCases.map { SettingKey(rawValue: $0.rawValue) } == SettingKey.allCases)
    #expect(SettingKey(rawValue: "maxLabel") == nil)
    #expect(SettingKey(rawValue: "Style") == nil)
    #expect(SettingKey.allCases.map(\.description) == SettingKey.allCases.map(\.rawValue))
  }

  /// A value read back from a record is taken only when the key's own parser would take it as
  /// written, and only in the key's form.
  @Test func restoredValuesFollowTheKeysRules() {
    let refused: [(SettingKey, PlainSettingValue)] = [
      (.maxLabel, .number(0)), (.pulseMs, .number(3_600_001)), (.step, .number(0)),
      (.style, .choice(2)), (.badge, .yesNo(true)), (.muted, .number(1)),
      (.export, .text("")), (.export, .text("org.example.App.desktop")), (.export, .text("a:b")),
    ]
    for (key, value) in refused {
      var override = SettingsOverride(maxLabel: 7)
      #expect(!key.restore(value, into: &override), "\(key) \(value)")
      #expect(override == SettingsOverride(maxLabel: 7), "a refused value changes nothing")
    }
    var override = SettingsOverride.empty
    #expect(SettingKey.style.restore(.choice(1), into: &override))
    #expect(SettingKey.export.restore(.text("org.example.App"), into: &override))
    #expect(override == SettingsOverride(style: .dot, export: "org.example.App"))
    #expect(override.values.map(\.value) == [.choice(1), .text("org.example.App")])
    #expect(SettingKey.allCases.map(\.form) == [.number, .choice, .number, .yesNo, .choice, .choice, .number, .text])
  }
}
