import Testing

@testable import BadgeCore

/// `step`: what a client's stepper changes a channel's count by, set like every other channel
/// setting (config sections, exact and glob; `CONFIGURE`).
@Suite struct StepSettingTests {
  @Test func theDefaultIsOne() {
    #expect(ChannelSettings.defaults.step == 1)
    #expect(SettingKey.step.format(.defaults) == "1")
    #expect(SettingsOverride().applied(to: .defaults).step == 1)
  }

  @Test func parseTakesOneToTheLargestCount() throws {
    var override = SettingsOverride()
    try SettingKey.step.parse("1", into: &override)
    #expect(override == SettingsOverride(step: 1))
    try SettingKey.step.parse("2147483647", into: &override)
    #expect(override == SettingsOverride(step: Limits.maxCount))
    #expect(!override.isEmpty)
    SettingKey.step.reset(in: &override)
    #expect(override.isEmpty)
  }

  @Test(arguments: [
    ("0", "expected a number from 1 to 2147483647"), ("2147483648", "expected a number from 1 to 2147483647"),
    ("", "expected a whole number"), ("-5", "expected a whole number"), ("five", "expected a whole number"),
    ("1.5", "expected a whole number"),
  ])
  func otherValuesAreRefused(_ text: String, _ reason: String) {
    var override = SettingsOverride(step: 3)
    do {
      try SettingKey.step.parse(text, into: &override)
      Issue.record("'\(text)' was accepted")
    } catch {
      #expect(error.reason == reason)
    }
    #expect(override == SettingsOverride(step: 3), "a refused value changes nothing")
  }

  @Test func sectionsSetItExactWinningOverGlob() throws {
    let config = try DaemonConfigTests.parse([
      ("channel mail", "step", "5"), ("channel ci:*", "step", "10"), ("channel ci:nightly", "step", "2"),
    ])
    #expect(config.settings(for: name("mail")).settings.step == 5)
    #expect(config.settings(for: name("ci:main")).settings.step == 10)
    #expect(config.settings(for: name("ci:nightly")).settings.step == 2)
    #expect(config.settings(for: name("news")).settings.step == 1)
  }

  @Test func aBadStepInTheConfigNamesItsLine() {
    #expect(
      DaemonConfigTests.failure([("channel mail", "step", "0")])
        == "badged.conf:2: Invalid value '0' for step: expected a number from 1 to 2147483647")
  }

  @Test func overridesMergeAndApplyTheStep() {
    let config = SettingsOverride(step: 5)
    #expect(config.merged(with: SettingsOverride(muted: true)).step == 5)
    #expect(config.merged(with: SettingsOverride(step: 2)).step == 2)
    #expect(
      SettingsOverride(step: 7).applied(to: .defaults)
        == ChannelSettings(maxLabel: 99, style: .count, pulseMs: 3000, muted: false, step: 7))
  }
}
