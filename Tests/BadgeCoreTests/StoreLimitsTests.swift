import BadgeConfig
import Testing

@testable import BadgeCore

/// Forgetting idle channels and `[limits] max_channels`.
@Suite struct StoreLimitsTests {
  static func store(maxChannels: Int, sections: String...) -> Store {
    var config = DaemonConfig()
    config.limits.maxChannels = maxChannels
    for text in sections {
      config.sections.append(
        ChannelSection(pattern: ChannelPattern(text)!, override: SettingsOverride(muted: true), line: 1))
    }
    return Store(config: config.channels)
  }

  @Test func aChannelAtZeroWithNoSettingIsForgotten() {
    let store = Store()
    apply(.write(.incr(3)), "mail", on: store)
    #expect(store.channels.count == 1)
    let cleared = apply(.write(.set(0)), "mail", on: store)
    #expect(cleared.changed && cleared.channel.seq == 2, "the reply still shows the change")
    #expect(store.channels.isEmpty)
    #expect(store.channel(named: name("mail")).seq == 0, "it reads as never written")
    #expect(store.seq == 2, "the sequence number never goes back")
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.seq == 3)
  }

  @Test func aChannelWithASettingOrASectionIsKeptAtZero() {
    let store = Self.store(maxChannels: 10, sections: "ci")
    apply(.write(.mute), "quiet", on: store)
    apply(.write(.incr(1)), "quiet", on: store)
    apply(.write(.set(0)), "quiet", on: store)
    #expect(store.channels.map(\.name.description).sorted() == ["ci", "quiet"])
    apply(.write(.unmute), "quiet", on: store)  // the setting goes: now it is forgotten
    #expect(store.channels.map(\.name.description) == ["ci"])
  }

  @Test func forgettingKeepsEveryOtherChannelFindable() {
    let store = Store()
    for i in 0..<100 { apply(.write(.set(i + 1)), "c\(i)", on: store) }
    for i in stride(from: 0, to: 100, by: 2) { apply(.write(.set(0)), "c\(i)", on: store) }
    #expect(store.channels.count == 50)
    for i in 0..<100 {
      #expect(store.channel(named: name("c\(i)")).count == (i % 2 == 0 ? 0 : i + 1))
    }
  }

  @Test func aNewChannelPastTheLimitIsRefusedAndChangesNothing() throws {
    let store = Self.store(maxChannels: 3, sections: "ci")
    apply(.write(.incr(1)), "a", on: store)
    apply(.write(.incr(1)), "b", on: store)
    #expect(throws: Store.MutationError.full(ChannelLimit(3, key: "[limits] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("c"), now: 0)
    }
    #expect(throws: Store.MutationError.full(ChannelLimit(3, key: "[limits] max_channels"))) {
      try store.apply(.write(.mute), to: name("c"), now: 0)
    }
    #expect(store.seq == 2)
    #expect(store.channels.count == 3)
    // Existing channels still change, and a request that makes nothing new is not refused.
    #expect(apply(.write(.incr(5)), "a", on: store).channel.count == 6)
    #expect(!apply(.write(.decr(1)), "c", on: store).changed)
    #expect(!apply(.write(.set(0)), "c", on: store).changed)
    // Clearing one makes room.
    apply(.write(.set(0)), "b", on: store)
    #expect(apply(.write(.incr(1)), "c", on: store).channel.count == 1)
  }

  @Test func aReloadForgetsChannelsWhoseSectionWentAndRefusesPastALowerLimit() {
    let store = Self.store(maxChannels: 10, sections: "ci", "news")
    apply(.write(.incr(1)), "news", on: store)
    apply(.write(.incr(1)), "a", on: store)
    var config = DaemonConfig()
    config.limits.maxChannels = 1
    store.reconfigure(config.channels) { _ in }
    #expect(store.channels.map(\.name.description).sorted() == ["a", "news"], "ci had only its section")
    #expect(throws: Store.MutationError.full(ChannelLimit(1, key: "[limits] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("b"), now: 0)
    }
    #expect(apply(.write(.incr(1)), "a", on: store).channel.count == 2, "what is kept still changes")
  }

  @Test func recoveryDoesNotKeepChannelsThatHaveNothing() {
    let store = Store()
    store.restore(name: name("gone"), count: 0, override: SettingsOverride(), seq: 7)
    store.restore(name: name("kept"), count: 2, override: SettingsOverride(), seq: 8)
    #expect(store.channels.map(\.name.description) == ["kept"])
    #expect(store.seq == 8)
  }

  /// A store whose clients may keep 2 channels, the LauncherEntry bridge 3 and the
  /// notification count 1.
  static func pooledStore() -> Store {
    var config = DaemonConfig()
    config.limits.maxChannels = 2
    config.bridge.maxChannels = 3
    config.notifications.maxChannels = 1
    return Store(config: config.channels)
  }

  @Test func theBridgesChannelsAreCountedApartFromTheClients() throws {
    let store = Self.pooledStore()
    for app in ["app:a", "app:b", "app:c"] { apply(.write(.incr(1)), app, on: store) }
    #expect(throws: Store.MutationError.full(ChannelLimit(3, key: "[bridge] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("app:d"), now: 0)
    }
    apply(.write(.incr(1)), "notify:x", on: store)
    #expect(throws: Store.MutationError.full(ChannelLimit(1, key: "[notifications] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("notify:y"), now: 0)
    }
    // The bridges' channels took none of the clients' room.
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "ci", on: store)
    #expect(throws: Store.MutationError.full(ChannelLimit(2, key: "[limits] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("news"), now: 0)
    }
    #expect(store.channels.count == 6)
    #expect([store.pooled[.clients], store.pooled[.launcherEntry], store.pooled[.notifications]] == [2, 3, 1])
    // Forgetting one makes room in its own pool only.
    apply(.write(.set(0)), "app:a", on: store)
    #expect(throws: Store.MutationError.full(ChannelLimit(2, key: "[limits] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("news"), now: 0)
    }
    #expect(apply(.write(.incr(1)), "app:d", on: store).changed)
  }

  @Test(arguments: [
    ("app:x", ChannelPool.launcherEntry), ("notify:x", .notifications), ("mail", .clients),
    ("apps", .clients), ("notify", .clients), ("x:app:", .clients),
  ])
  func aChannelsPoolIsReadFromItsName(_ text: String, _ pool: ChannelPool) {
    #expect(ChannelPool(of: name(text)) == pool)
  }

  /// Channels come back from disk without their maker: their names put them in their pools, so
  /// a restart gives the bridge no new room and takes none from clients.
  @Test func restoredChannelsCountInTheirPools() throws {
    let store = Self.pooledStore()
    for i in 0..<5 {
      store.restore(name: name("app:old\(i)"), count: 1, override: SettingsOverride(), seq: UInt64(i + 1))
    }
    #expect(store.pooled[.launcherEntry] == 5, "recovery keeps what was saved, past a lower limit too")
    #expect(throws: Store.MutationError.full(ChannelLimit(3, key: "[bridge] max_channels"))) {
      try store.apply(.write(.incr(1)), to: name("app:new"), now: 0)
    }
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "ci", on: store)
    #expect(store.pooled[.clients] == 2)
  }

  @Test func undoingANewChannelGivesItsRoomBack() throws {
    let store = Self.pooledStore()
    store.keepsUndo = true
    apply(.write(.incr(1)), "app:a", on: store)
    apply(.write(.incr(1)), "mail", on: store)
    store.undoChanges()
    #expect(store.channels.isEmpty)
    #expect([store.pooled[.clients], store.pooled[.launcherEntry]] == [0, 0])
  }

  /// Channels another machine owns have room of their own (`max_mirrored`): however many the
  /// broker holds, a local client's new channel is never refused because of them.
  @Test func mirroredChannelsAreCountedApartFromTheClients() throws {
    var config = DaemonConfig()
    config.limits.maxChannels = 2
    config.limits.maxMirrored = 3
    let store = Store(config: config.channels)
    let state = MirrorUpdate(owner: "junk", count: 1, unseen: 1, total: 1, muted: false, dot: false)
    for i in 0..<3 { apply(.mirror(state), "m\(i)", on: store) }
    #expect(throws: Store.MutationError.full(ChannelLimit(3, key: "[limits] max_mirrored"))) {
      try store.apply(.mirror(state), to: name("m3"), now: 0)
    }
    #expect(store.channels.count == 3 && store.seq == 3, "the refused mirror changed nothing")
    apply(.write(.incr(1)), "mylocal", on: store)
    apply(.write(.incr(1)), "app:x", on: store)
    apply(.write(.incr(1)), "other", on: store)
    #expect([store.pooled[.clients], store.pooled[.launcherEntry], store.pooled[.mirrors]] == [2, 1, 3])
    #expect(ChannelPool(of: store.channel(named: name("m0"))) == .mirrors)
    // A mirror forgotten gives its room back to the mirrors alone.
    apply(.forgetMirror, "m0", on: store)
    #expect(store.pooled[.mirrors] == 2 && store.pooled[.clients] == 2)
    #expect(apply(.mirror(state), "m3", on: store).changed)
    // Restored from disk, a mirror is counted among the mirrors: its owner is saved with it.
    let restored = Store(config: config.channels)
    restored.restore(
      name: name("m0"), count: 1, override: SettingsOverride(), mirror: MirrorState(owner: "junk"), seq: 1)
    restored.restore(name: name("mylocal"), count: 1, override: SettingsOverride(), seq: 2)
    #expect([restored.pooled[.clients], restored.pooled[.mirrors]] == [1, 1])
  }
}
