import Testing

@testable import BadgeCore

/// `export`: the desktop id a channel's count is announced for to docks, a channel setting
/// that config sections naming one channel and `CONFIGURE` both set, with the same rules.
@Suite struct ExportSettingTests {
  @Test func theDefaultIsNoExport() {
    #expect(ChannelSettings.defaults.export == nil)
    #expect(SettingKey.export.format(.defaults) == "")
    #expect(SettingsOverride().applied(to: .defaults).export == nil)
  }

  @Test func parseTakesADesktopIDAndDropsDotDesktop() throws {
    var override = SettingsOverride()
    try SettingKey.export.parse("org.example.app", into: &override)
    #expect(override == SettingsOverride(export: "org.example.app"))
    try SettingKey.export.parse("org.example.Mail.desktop", into: &override)
    #expect(override == SettingsOverride(export: "org.example.Mail"))
    #expect(!override.isEmpty)
    SettingKey.export.reset(in: &override)
    #expect(override.isEmpty)
  }

  @Test(arguments: ["", "my app", ".desktop", "my:app", "a/b", "é"])
  func otherValuesAreRefused(_ text: String) {
    var override = SettingsOverride(export: "kept")
    do {
      try SettingKey.export.parse(text, into: &override)
      Issue.record("'\(text)' was accepted")
    } catch {
      #expect(error.reason == "expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)")
    }
    #expect(override == SettingsOverride(export: "kept"), "a refused value changes nothing")
  }

  @Test func theConfigSetsItInTheSectionsOverride() throws {
    let config = try DaemonConfigTests.parse([
      ("channel mail", "export", "org.example.Mail"), ("channel mail", "step", "2"),
    ])
    #expect(config.sections.first?.override == SettingsOverride(step: 2, export: "org.example.Mail"))
    #expect(config.settings(for: name("mail")).settings.export == "org.example.Mail")
    #expect(config.settings(for: name("news")).settings.export == nil)
  }

  @Test func aSocketOverrideGoesOverTheConfigsAndDefaultDropsIt() {
    let config = SettingsOverride(export: "org.example.Mail")
    #expect(config.merged(with: SettingsOverride(muted: true)).export == "org.example.Mail")
    #expect(config.merged(with: SettingsOverride(export: "other")).export == "other")
    var socket = SettingsOverride(export: "other")
    SettingKey.export.reset(in: &socket)
    #expect(socket.applied(to: config.applied(to: .defaults)).export == "org.example.Mail")
  }

  @Test func theStoreListsChannelsExportedEitherWay() throws {
    let store = Store(config: try DaemonConfigTests.parse([("channel mail", "export", "org.example.Mail")]).channels)
    try store.apply(.configure(set: SettingsOverride(export: "org.example.chat"), reset: []), to: name("chat"), now: 0)
    #expect(store.exported.map(\.name) == [name("chat"), name("mail")])
    #expect(store.exported.map(\.settings.export) == ["org.example.chat", "org.example.Mail"])
    try store.apply(.configure(set: SettingsOverride(), reset: [.export]), to: name("chat"), now: 0)
    #expect(store.exported.map(\.name) == [name("mail")])
  }
}
