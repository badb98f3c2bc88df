import BadgeConfig
import Testing

@testable import BadgeCore

/// Settings over the socket and from the config, listing, reloads and recovery.
@Suite struct StoreSettingsTests {
  static func section(_ pattern: String, _ override: SettingsOverride, line: Int = 1) -> ChannelSection {
    ChannelSection(pattern: ChannelPattern(pattern)!, override: override, line: line)
  }

  static func config(_ sections: ChannelSection...) -> DaemonConfig {
    var config = DaemonConfig()
    config.sections = sections
    return config
  }

  @Test func configureSetsAndResets() {
    let store = Store(config: Self.config(Self.section("mail", SettingsOverride(maxLabel: 9))).channels)
    apply(.write(.set(12)), "mail", on: store)
    #expect(store.channel(named: name("mail")).label == "9+")

    let set = apply(.configure(set: SettingsOverride(maxLabel: 20, style: .dot), reset: []), "mail", on: store)
    #expect(set.changed)
    #expect(set.channel.override == SettingsOverride(maxLabel: 20, style: .dot))
    #expect(set.channel.settings == ChannelSettings(maxLabel: 20, style: .dot, pulseMs: 3000, muted: false))
    #expect(set.channel.label == "•")
    #expect(set.channel.seq == 2)

    let reset = apply(.configure(set: SettingsOverride(), reset: [.style]), "mail", on: store)
    #expect(reset.changed)
    #expect(reset.channel.override == SettingsOverride(maxLabel: 20))
    #expect(reset.channel.label == "12")

    let back = apply(.configure(set: SettingsOverride(), reset: [.maxLabel]), "mail", on: store)
    #expect(back.channel.override.isEmpty)
    #expect(back.channel.label == "9+", "the config's value applies again")
    #expect(store.seq == 4)
  }

  /// `hasOverride` follows the override, whatever the config section says.
  @Test func aChannelSaysWhetherAClientMadeSettings() {
    let store = Store(config: Self.config(Self.section("mail", SettingsOverride(maxLabel: 9))).channels)
    #expect(!store.channel(named: name("mail")).hasOverride, "a config section is no override")
    #expect(apply(.write(.mute), "mail", on: store).channel.hasOverride)
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.hasOverride)
    #expect(!apply(.write(.unmute), "mail", on: store).channel.hasOverride)
    #expect(apply(.configure(set: SettingsOverride(step: 2), reset: []), "news", on: store).channel.hasOverride)
    #expect(!apply(.configure(set: SettingsOverride(), reset: [.step]), "news", on: store).channel.hasOverride)
  }

  @Test func configureMergesOverEarlierSettings() {
    let store = Store()
    apply(.configure(set: SettingsOverride(maxLabel: 5), reset: []), "mail", on: store)
    let outcome = apply(.configure(set: SettingsOverride(pulseMs: 100), reset: []), "mail", on: store)
    #expect(outcome.channel.override == SettingsOverride(maxLabel: 5, pulseMs: 100))
  }

  @Test func configureWithTheSameValuesIsNotAChange() {
    let store = Store()
    apply(.configure(set: SettingsOverride(maxLabel: 5), reset: []), "mail", on: store)
    #expect(!apply(.configure(set: SettingsOverride(maxLabel: 5), reset: []), "mail", on: store).changed)
    #expect(!apply(.configure(set: SettingsOverride(), reset: [.style]), "mail", on: store).changed)
    #expect(store.seq == 1)
  }

  @Test func listedHoldsChannelsWithACountOrASettingByName() {
    let store = Store(
      config: Self.config(
        Self.section("zeta", SettingsOverride(style: .dot)), Self.section("app:*", SettingsOverride(muted: true))
      ).channels)
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "Chat", on: store)
    apply(.write(.incr(1)), "gone", on: store)
    apply(.write(.decr(1)), "gone", on: store)
    apply(.configure(set: SettingsOverride(pulseMs: 0), reset: []), "beta", on: store)
    apply(.write(.incr(1)), "app:x", on: store)
    apply(.write(.decr(1)), "app:x", on: store)
    #expect(store.listed.map(\.name.description) == ["Chat", "app:x", "beta", "mail", "zeta"])
    #expect(store.channels.count == 5, "a channel back at 0 with no setting is forgotten")
    #expect(store.listed.allSatisfy { $0.isListed })
  }

  @Test func exactSectionsCreateTheirChannelsAndGlobsDoNot() {
    let store = Store(
      config: Self.config(
        Self.section("mail", SettingsOverride(maxLabel: 9)), Self.section("app:*", SettingsOverride(muted: true))
      ).channels)
    #expect(store.channels.map(\.name) == [name("mail")])
    let mail = store.channel(named: name("mail"))
    #expect(mail.count == 0)
    #expect(mail.seq == 0)
    #expect(mail.hasConfigSection)
    #expect(store.listed.map(\.name) == [name("mail")])
    #expect(store.seq == 0)
    let app = store.channel(named: name("app:chat"))
    #expect(app.settings.muted)
    #expect(app.hasConfigSection)
  }

  @Test func reconfigureReportsChannelsWhoseSettingsChanged() {
    let store = Store(config: Self.config(Self.section("mail", SettingsOverride(maxLabel: 9))).channels)
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.incr(4)), "chat", on: store)
    apply(.write(.incr(5)), "news", on: store)
    apply(.configure(set: SettingsOverride(maxLabel: 50), reset: []), "news", on: store)
    let seq = store.seq

    var next = DaemonConfig()
    next.defaults.maxLabel = 20
    next.sections = [
      Self.section("mail", SettingsOverride(maxLabel: 9)), Self.section("chat", SettingsOverride(style: .dot)),
    ]
    var changed: [Channel] = []
    store.reconfigure(next.channels) { changed.append($0) }

    #expect(changed.map(\.name) == [name("chat")], "mail keeps 9 by its section; news keeps 50 by its override")
    #expect(changed.first?.label == "•")
    #expect(store.config == next.channels)
    #expect(store.seq == seq, "a reload is not a change")
    #expect(store.channel(named: name("mail")).count == 3)
    #expect(store.channel(named: name("chat")).count == 4)
    #expect(store.channel(named: name("news")).override == SettingsOverride(maxLabel: 50))
    #expect(store.channel(named: name("other")).settings.maxLabel == 20)
  }

  @Test func reconfigureCreatesNewlyConfiguredChannelsAndDropsOldSections() {
    let store = Store(config: Self.config(Self.section("old", SettingsOverride(style: .dot))).channels)
    #expect(store.listed.map(\.name) == [name("old")])
    var changed: [Channel] = []
    store.reconfigure(Self.config(Self.section("new", SettingsOverride(maxLabel: 5))).channels) { changed.append($0) }
    #expect(store.listed.map(\.name) == [name("new")])
    #expect(!store.channel(named: name("old")).hasConfigSection)
    #expect(store.channel(named: name("new")).settings.maxLabel == 5)
    #expect(changed.map(\.name) == [name("old"), name("new")], "old went back to the count style; new joined LIST")
  }

  @Test func aReloadThatMutesEndsTheWindow() {
    let store = Store()
    apply(.write(.incr(1)), "mail", on: store, at: 0)
    #expect(store.channel(named: name("mail")).pulseUntil != 0)
    var changed: [Channel] = []
    store.reconfigure(Self.config(Self.section("mail", SettingsOverride(muted: true))).channels) { changed.append($0) }
    #expect(changed.count == 1)
    #expect(changed.first?.pulseUntil == 0)
    var ended = 0
    store.expirePulses(now: 10_000_000) { _ in ended += 1 }
    #expect(ended == 0)
  }

  @Test func restorePutsAChannelBack() {
    let store = Store(config: Self.config(Self.section("mail", SettingsOverride(maxLabel: 9))).channels)
    store.restore(name: name("mail"), count: 12, override: SettingsOverride(style: .dot), seq: 40)
    store.restore(name: name("chat"), count: 3, override: SettingsOverride(), seq: 7)
    let mail = store.channel(named: name("mail"))
    #expect(mail.count == 12)
    #expect(mail.seq == 40)
    #expect(mail.settings == ChannelSettings(maxLabel: 9, style: .dot, pulseMs: 3000, muted: false))
    #expect(mail.pulseUntil == 0)
    #expect(store.channel(named: name("chat")).count == 3)
    #expect(store.seq == 40, "seq moves up to the largest restored, never down")
    #expect(store.listed.map(\.name) == [name("chat"), name("mail")])
    #expect(apply(.write(.incr(1)), "chat", on: store).channel.seq == 41)
  }

  @Test func restoreClampsCounts() {
    let store = Store()
    store.restore(name: name("low"), count: -3, override: SettingsOverride(), seq: 1)
    store.restore(name: name("high"), count: Int.max, override: SettingsOverride(), seq: 2)
    #expect(store.channel(named: name("low")).count == 0)
    #expect(store.channel(named: name("high")).count == Limits.maxCount)
  }

  @Test func restoreSeqOnlyMovesUp() {
    let store = Store()
    store.restoreSeq(atLeast: 10)
    #expect(store.seq == 10)
    store.restoreSeq(atLeast: 3)
    #expect(store.seq == 10)
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.seq == 11)
  }

  @Test func snapshotsCarryWhatClientsSee() {
    let store = Store(config: Self.config(Self.section("mail", SettingsOverride(style: .dot))).channels)
    apply(.write(.incr(3)), "mail", on: store, at: 1_000_000)
    apply(.write(.mute), "chat", on: store, at: 1_000_000)
    apply(.write(.incr(120)), "chat", on: store, at: 1_000_000)
    let mail = store.channel(named: name("mail")).snapshot(at: 2_000_000)
    #expect(
      mail
        == ChannelSnapshot(
          channel: "mail", count: 3, label: "•", dot: true, pulseMs: 2000, muted: false, seq: 1, total: 3))
    let chat = store.channel(named: name("chat")).snapshot(at: 2_000_000)
    #expect(
      chat
        == ChannelSnapshot(
          channel: "chat", count: 120, label: "99+", dot: false, pulseMs: 0, muted: true, seq: 3, total: 120))
    #expect(chat.online)
  }
}
