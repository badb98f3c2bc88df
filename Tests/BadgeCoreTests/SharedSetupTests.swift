import BadgeConfig
import Testing

@testable import BadgeCore

/// Channels with only default settings share one settings object; any setting gives a channel
/// its own.
@Suite struct SharedSetupTests {
  @Test func defaultChannelsShareOneSetupAndConfiguringOneLeavesTheOther() throws {
    let store = Store()
    apply(.write(.incr(1)), "a", on: store)
    apply(.write(.incr(1)), "b", on: store)
    #expect(store.channel(named: name("a")).setup === store.channel(named: name("b")).setup)
    #expect(store.channel(named: name("a")).setup === ChannelSetup.plain)

    apply(.configure(set: SettingsOverride(maxLabel: 5, style: .dot), reset: []), "a", on: store)
    let a = store.channel(named: name("a"))
    let b = store.channel(named: name("b"))
    #expect(a.setup !== ChannelSetup.plain)
    #expect(a.settings == ChannelSettings(maxLabel: 5, style: .dot, pulseMs: 3000, muted: false))
    #expect(b.settings == .defaults)
    #expect(b.override.isEmpty)
    #expect(b.setup === ChannelSetup.plain)
    #expect(!a.hasOverride(of: b.setup))
    #expect(b.hasOverride(of: ChannelSetup.plain))

    apply(.configure(set: SettingsOverride(), reset: [.maxLabel, .style]), "a", on: store)
    #expect(store.channel(named: name("a")).setup === ChannelSetup.plain, "back to defaults: shared again")
    #expect(ChannelSetup.plain.settings == .defaults, "the shared object was never changed")
  }

  @Test func aConfigSectionOrOtherDefaultsGetTheirOwnSetup() {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: ChannelPattern("mail")!, override: SettingsOverride(), line: 1)]
    let store = Store(config: config.channels)
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "news", on: store)
    #expect(store.channel(named: name("mail")).setup !== ChannelSetup.plain)
    #expect(store.channel(named: name("mail")).hasConfigSection)
    #expect(store.channel(named: name("news")).setup === ChannelSetup.plain)
  }
}
