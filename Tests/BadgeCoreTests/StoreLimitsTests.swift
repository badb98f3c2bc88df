@testable import BadgeCore
import Testing

/// Forgetting idle channels and `[limits] max_channels`.
@Suite struct StoreLimitsTests {
  static func store(maxChannels: Int, sections: String...) -> Store {
    var config = DaemonConfig()
    config.limits.maxChannels = maxChannels
    for text in sections {
      config.sections.append(ChannelSection(pattern: ChannelPattern(text)!, override: SettingsOverride(muted: true), line: 1))
    }
    return Store(config: config)
  }

  @Test func aChannelAtZeroWithNoSettingIsForgotten() {
    let store = Store()
    apply(.increment(3), "mail", on: store)
    #expect(store.channels.count == 1)
    let cleared = apply(.set(0), "mail", on: store)
    #expect(cleared.changed && cleared.channel.seq == 2, "the reply still shows the change")
    #expect(store.channels.isEmpty)
    #expect(store.channel(named: name("mail")).seq == 0, "it reads as never written")
    #expect(store.seq == 2, "the sequence number never goes back")
    #expect(apply(.increment(1), "mail", on: store).channel.seq == 3)
  }

  @Test func aChannelWithASettingOrASectionIsKeptAtZero() {
    let store = Self.store(maxChannels: 10, sections: "ci")
    apply(.mute, "quiet", on: store)
    apply(.increment(1), "quiet", on: store)
    apply(.set(0), "quiet", on: store)
    #expect(store.channels.map(\.name.description).sorted() == ["ci", "quiet"])
    apply(.unmute, "quiet", on: store)  // the setting goes: now it is forgotten
    #expect(store.channels.map(\.name.description) == ["ci"])
  }

  @Test func forgettingKeepsEveryOtherChannelFindable() {
    let store = Store()
    for i in 0..<100 { apply(.set(i + 1), "c\(i)", on: store) }
    for i in stride(from: 0, to: 100, by: 2) { apply(.set(0), "c\(i)", on: store) }
    #expect(store.channels.count == 50)
    for i in 0..<100 {
      #expect(store.channel(named: name("c\(i)")).count == (i % 2 == 0 ? 0 : i + 1))
    }
  }

  @Test func aNewChannelPastTheLimitIsRefusedAndChangesNothing() throws {
    let store = Self.store(maxChannels: 3, sections: "ci")
    apply(.increment(1), "a", on: store)
    apply(.increment(1), "b", on: store)
    #expect(throws: Store.MutationError.full(limit: 3)) {
      try store.apply(.increment(1), to: name("c"), now: 0)
    }
    #expect(throws: Store.MutationError.full(limit: 3)) {
      try store.apply(.mute, to: name("c"), now: 0)
    }
    #expect(store.seq == 2)
    #expect(store.channels.count == 3)
    // Existing channels still change, and a request that makes nothing new is not refused.
    #expect(apply(.increment(5), "a", on: store).channel.count == 6)
    #expect(!apply(.decrement(1), "c", on: store).changed)
    #expect(!apply(.set(0), "c", on: store).changed)
    // Clearing one makes room.
    apply(.set(0), "b", on: store)
    #expect(apply(.increment(1), "c", on: store).channel.count == 1)
  }

  @Test func aReloadForgetsChannelsWhoseSectionWentAndRefusesPastALowerLimit() {
    let store = Self.store(maxChannels: 10, sections: "ci", "news")
    apply(.increment(1), "news", on: store)
    apply(.increment(1), "a", on: store)
    var config = DaemonConfig()
    config.limits.maxChannels = 1
    store.reconfigure(config) { _ in }
    #expect(store.channels.map(\.name.description).sorted() == ["a", "news"], "ci had only its section")
    #expect(throws: Store.MutationError.full(limit: 1)) {
      try store.apply(.increment(1), to: name("b"), now: 0)
    }
    #expect(apply(.increment(1), "a", on: store).channel.count == 2, "what is kept still changes")
  }

  @Test func recoveryDoesNotKeepChannelsThatHaveNothing() {
    let store = Store()
    store.restore(name: name("gone"), count: 0, override: SettingsOverride(), seq: 7)
    store.restore(name: name("kept"), count: 2, override: SettingsOverride(), seq: 8)
    #expect(store.channels.map(\.name.description) == ["kept"])
    #expect(store.seq == 8)
  }
}
