import BadgeConfig
import BadgeCore
import Testing

/// `[bridge]`, `[notifications]` and the per-channel `export` key.
@Suite struct BridgeConfigTests {
  static func parse(_ items: [(section: String, key: String, value: String)]) throws(ConfigError) -> DaemonConfig {
    try DaemonConfigTests.parse(items)
  }

  @Test func theDefaultsBridgeAndDoNotCountNotifications() throws {
    let config = try Self.parse([])
    #expect(config.bridge == BridgeConfig())
    #expect(config.bridge.enabled)
    #expect(!config.bridge.clearOnExit)
    #expect(config.bridge.ignore.isEmpty)
    #expect(!config.notifications.count)
    #expect(config.exports.isEmpty)
    #expect(config.bridge.maxApps == 256)
    #expect(config.bridge.maxChannels == 1000)
    #expect(config.notifications.maxChannels == 1000)
  }

  @Test func theBridgesLimits() throws {
    let config = try Self.parse([
      ("bridge", "max_apps", "1"), ("bridge", "max_channels", "10000000"), ("notifications", "max_channels", "7"),
    ])
    #expect(config.bridge.maxApps == 1)
    #expect(config.channels.channelLimit(of: .launcherEntry) == ChannelLimit(10_000_000, key: "[bridge] max_channels"))
    #expect(config.channels.channelLimit(of: .notifications) == ChannelLimit(7, key: "[notifications] max_channels"))
    #expect(config.channels.channelLimit(of: .clients) == ChannelLimit(10_000, key: "[limits] max_channels"))
  }

  @Test func anExportIdIsAtMost255Bytes() throws {
    let longest = String(repeating: "a", count: 255)
    #expect(try Self.parse([("channel mail", "export", longest + ".desktop")]).exports[name("mail")] == longest)
    #expect(
      DaemonConfigTests.failure([("channel mail", "export", longest + "b")])
        == "badged.conf:2: Invalid value '\(longest)b' for export: a desktop id is at most 255 bytes, this one is 256")
  }

  @Test func bridgeKeys() throws {
    let config = try Self.parse([
      ("bridge", "enabled", "no"), ("bridge", "clear_on_exit", "yes"),
      ("bridge", "ignore", "org.telegram.* , code\tchrom?um"), ("notifications", "count", "on"),
    ])
    #expect(!config.bridge.enabled)
    #expect(config.bridge.clearOnExit)
    #expect(config.bridge.ignore == ["app:org.telegram.*", "app:code", "app:chrom?um"].map { ChannelPattern($0)! })
    #expect(config.bridge.ignores(name("app:org.telegram.desktop")))
    #expect(config.bridge.ignores(name("app:code")))
    #expect(config.bridge.ignores(name("app:chromium")))
    #expect(!config.bridge.ignores(name("app:code-oss")))
    #expect(!config.bridge.ignores(name("org.telegram.desktop")), "only app: channels")
    #expect(config.notifications.count)
  }

  @Test func anEmptyIgnoreListIgnoresNothing() throws {
    #expect(try Self.parse([("bridge", "ignore", "")]).bridge.ignore.isEmpty)
  }

  @Test func exportNamesADesktopIDForOneChannel() throws {
    let config = try Self.parse([
      ("channel mail", "export", "org.example.Mail.desktop"), ("channel chat", "export", "chat"),
      ("channel chat", "style", "dot"),
    ])
    #expect(config.exports == [name("mail"): "org.example.Mail", name("chat"): "chat"])
    #expect(config.sections.first?.export == "org.example.Mail")
    #expect(config.settings(for: name("mail")).matched)
  }

  @Test(arguments: [
    ("bridge", "enabled", "maybe", "badged.conf:2: Invalid value 'maybe' for enabled: expected yes or no"),
    ("bridge", "clear_on_exit", "", "badged.conf:2: Invalid value '' for clear_on_exit: expected yes or no"),
    (
      "bridge", "ignore", "org/telegram",
      "badged.conf:2: Invalid value 'org/telegram' for ignore: 'org/telegram' is not a glob over desktop ids (A-Z a-z 0-9 . _ - and * ?)"
    ),
    (
      "bridge", "colour", "red",
      "badged.conf:2: Unknown key 'colour' in [bridge]; expected one of enabled, clear_on_exit, ignore, max_apps, max_channels"
    ),
    ("bridge", "max_apps", "0", "badged.conf:2: Invalid value '0' for max_apps: expected a number from 1 to 100000"),
    (
      "bridge", "max_apps", "100001",
      "badged.conf:2: Invalid value '100001' for max_apps: expected a number from 1 to 100000"
    ),
    ("bridge", "max_channels", "-1", "badged.conf:2: Invalid value '-1' for max_channels: expected a whole number"),
    (
      "bridge", "max_channels", "10000001",
      "badged.conf:2: Invalid value '10000001' for max_channels: expected a number from 1 to 10000000"
    ),
    ("notifications", "count", "2", "badged.conf:2: Invalid value '2' for count: expected yes or no"),
    ("notifications", "max_channels", "", "badged.conf:2: Invalid value '' for max_channels: expected a whole number"),
    (
      "notifications", "max_channels", "0",
      "badged.conf:2: Invalid value '0' for max_channels: expected a number from 1 to 10000000"
    ),
    (
      "notifications", "enabled", "yes",
      "badged.conf:2: Unknown key 'enabled' in [notifications]; expected one of count, max_channels"
    ),
    (
      "channel app:*", "export", "x",
      "badged.conf:2: Invalid value 'x' for export: export needs a section that names one channel, not a glob"
    ),
    (
      "channel mail", "export", "",
      "badged.conf:2: Invalid value '' for export: expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)"
    ),
    (
      "channel mail", "export", "my app",
      "badged.conf:2: Invalid value 'my app' for export: expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)"
    ),
    (
      "channel mail", "export", ".desktop",
      "badged.conf:2: Invalid value '.desktop' for export: expected a desktop id such as org.example.App (A-Z a-z 0-9 . _ -)"
    ),
  ])
  func badValuesAreRefusedWithTheirLine(_ section: String, _ key: String, _ value: String, _ message: String) {
    #expect(DaemonConfigTests.failure([(section, key, value)]) == message)
  }
}
