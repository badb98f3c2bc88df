import BadgeConfig
import Testing

@testable import BadgeCore

/// Counts, their limits and the sequence number.
@Suite struct StoreCountTests {
  @Test func aNeverWrittenChannelReadsZero() {
    let store = Store()
    let channel = store.channel(named: name("mail"))
    #expect(channel.name == name("mail"))
    #expect(channel.count == 0)
    #expect(channel.seq == 0)
    #expect(channel.label == "")
    #expect(channel.settings == .defaults)
    #expect(store.seq == 0)
    #expect(store.channels.isEmpty, "reading does not create the channel")
    #expect(store.listed.isEmpty)
  }

  @Test func incrementAddsAndCounts() {
    let store = Store()
    let first = apply(.write(.incr(1)), "mail", on: store)
    #expect(first.changed)
    #expect(first.channel.count == 1)
    #expect(first.channel.seq == 1)
    let second = apply(.write(.incr(41)), "mail", on: store)
    #expect(second.channel.count == 42)
    #expect(second.channel.seq == 2)
    #expect(store.channel(named: name("mail")).count == 42)
    #expect(store.seq == 2)
  }

  @Test func decrementClampsAtZero() {
    let store = Store()
    apply(.write(.incr(3)), "mail", on: store)
    let down = apply(.write(.decr(1)), "mail", on: store)
    #expect(down.changed)
    #expect(down.channel.count == 2)
    let clamped = apply(.write(.decr(5)), "mail", on: store)
    #expect(clamped.changed)
    #expect(clamped.channel.count == 0)
    #expect(clamped.channel.seq == 3)
    let huge = apply(.write(.decr(Limits.maxCount)), "mail", on: store)
    #expect(!huge.changed)
    #expect(huge.channel.count == 0)
  }

  @Test func setReplacesTheCount() {
    let store = Store()
    #expect(apply(.write(.set(7)), "mail", on: store).channel.count == 7)
    #expect(apply(.write(.set(2)), "mail", on: store).channel.count == 2)
    #expect(apply(.write(.set(0)), "mail", on: store).channel.count == 0)
    #expect(store.seq == 3)
  }

  @Test func countsReachTheLargest32BitValue() {
    let store = Store()
    #expect(Limits.maxCount == 2_147_483_647)
    apply(.write(.set(Limits.maxCount - 1)), "mail", on: store)
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.count == Limits.maxCount)
    #expect(apply(.write(.set(Limits.maxCount)), "chat", on: store).channel.count == Limits.maxCount)
    #expect(apply(.write(.incr(Limits.maxCount)), "news", on: store).channel.count == Limits.maxCount)
  }

  @Test func anIncrementPastTheMaximumIsRefusedAndChangesNothing() throws {
    let store = Store()
    apply(.write(.set(Limits.maxCount - 2)), "mail", on: store, at: 0)
    let seq = store.seq
    #expect(throws: Store.MutationError.countOutOfRange(current: Limits.maxCount - 2)) {
      try store.apply(.write(.incr(3)), to: name("mail"), now: 5)
    }
    #expect(throws: Store.MutationError.countOutOfRange(current: Limits.maxCount - 2)) {
      try store.apply(.write(.incr(Limits.maxCount)), to: name("mail"), now: 5)
    }
    let after = store.channel(named: name("mail"))
    #expect(after.count == Limits.maxCount - 2)
    #expect(after.seq == seq)
    #expect(store.seq == seq)
    #expect(after.pulseUntil == 3_000_000, "a refused increment does not restart the pulse")
  }

  @Test func aSetPastTheMaximumIsRefusedAndChangesNothing() {
    let store = Store()
    apply(.write(.set(4)), "mail", on: store)
    #expect(throws: Store.MutationError.countOutOfRange(current: 4)) {
      try store.apply(.write(.set(Limits.maxCount + 1)), to: name("mail"), now: 0)
    }
    #expect(store.channel(named: name("mail")).count == 4)
    #expect(store.seq == 1)
  }

  @Test func aRefusedMutationOfANewChannelDoesNotCreateIt() {
    let store = Store()
    #expect(throws: Store.MutationError.countOutOfRange(current: 0)) {
      try store.apply(.write(.set(Limits.maxCount + 1)), to: name("mail"), now: 0)
    }
    #expect(store.channels.isEmpty)
    #expect(store.seq == 0)
  }

  @Test func seqIsGlobalAndEachChannelKeepsItsLast() {
    let store = Store()
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "chat", on: store)
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.mute), "news", on: store)
    #expect(store.seq == 4)
    #expect(store.channel(named: name("mail")).seq == 3)
    #expect(store.channel(named: name("chat")).seq == 2)
    #expect(store.channel(named: name("news")).seq == 4)
  }

  /// Mutations that change nothing; each is applied to a channel at count 5, muted by override.
  @Test(arguments: [
    Store.Mutation.write(.decr(0)), .write(.incr(0)), .write(.set(5)), .write(.mute),
    .configure(set: SettingsOverride(muted: true), reset: []),
    .configure(set: SettingsOverride(), reset: [.maxLabel, .style, .pulseMs]),
  ])
  func noOpsAreNotChanges(_ mutation: Store.Mutation) throws {
    let store = Store()
    apply(.write(.set(5)), "mail", on: store)
    apply(.write(.mute), "mail", on: store)
    let before = store.channel(named: name("mail"))
    let outcome = try store.apply(mutation, to: name("mail"), now: 99)
    #expect(!outcome.changed)
    #expect(outcome.channel.seq == before.seq)
    #expect(outcome.channel.count == 5)
    #expect(store.seq == 2)
  }

  @Test func decrementAndClearAtZeroAreNotChanges() {
    let store = Store()
    #expect(!apply(.write(.decr(1)), "mail", on: store).changed)
    #expect(!apply(.write(.set(0)), "mail", on: store).changed)
    #expect(store.seq == 0)
    #expect(store.channels.isEmpty, "a no-op does not create the channel")
  }

  @Test func muteAndUnmuteAreChangesOnce() {
    let store = Store()
    let muted = apply(.write(.mute), "mail", on: store)
    #expect(muted.changed)
    #expect(muted.channel.settings.muted)
    #expect(muted.channel.override == SettingsOverride(muted: true))
    #expect(!apply(.write(.mute), "mail", on: store).changed)
    let unmuted = apply(.write(.unmute), "mail", on: store)
    #expect(unmuted.changed)
    #expect(!unmuted.channel.settings.muted)
    #expect(!apply(.write(.unmute), "mail", on: store).changed)
    #expect(store.seq == 2)
  }

  @Test func mutingToWhatTheConfigSaysLeavesNoOverride() throws {
    var config = DaemonConfig()
    config.sections = [
      ChannelSection(pattern: ChannelPattern("quiet")!, override: SettingsOverride(muted: true), line: 1)
    ]
    let store = Store(config: config.channels)
    #expect(store.channel(named: name("quiet")).settings.muted)
    let mute = apply(.write(.mute), "quiet", on: store)
    #expect(!mute.changed, "muted already, by the config")
    #expect(mute.channel.override.muted == nil)
    let unmute = apply(.write(.unmute), "quiet", on: store)
    #expect(unmute.changed && unmute.channel.override.muted == false, "unmuting against the config is a setting")
    let again = apply(.write(.mute), "quiet", on: store)
    #expect(again.changed && again.channel.override.muted == nil, "back to what the config says: no setting left")
    #expect(again.channel.settings.muted)
  }

  @Test func clearAllZeroesEveryCountInNameOrder() {
    let store = Store()
    apply(.write(.incr(2)), "news", on: store)
    apply(.write(.incr(1)), "chat", on: store)
    apply(.write(.mute), "idle", on: store)
    apply(.write(.incr(5)), "mail", on: store)
    var cleared: [(String, Int, UInt64)] = []
    store.writeAll(.clear(upTo: nil), now: 0) {
      cleared.append(($0.channel.name.description, $0.channel.count, $0.channel.seq))
    }
    #expect(cleared.map(\.0) == ["chat", "mail", "news"])
    #expect(cleared.map(\.1) == [0, 0, 0])
    #expect(cleared.map(\.2) == [5, 6, 7])
    #expect(store.seq == 7)
    #expect(store.channels.allSatisfy { $0.count == 0 })
    var again = 0
    store.writeAll(.clear(upTo: nil), now: 0) { _ in again += 1 }
    #expect(again == 0)
    #expect(store.seq == 7)
  }
}
