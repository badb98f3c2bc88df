import BadgeConfig
import TestSupport
import Testing

@testable import BadgeCore

/// Pulse windows, driven by a clock the test moves.
@Suite struct StorePulseTests {
  var clock = ManualClock()
  let store = Store()

  func pulseLeft(_ channel: String) -> Int {
    store.channel(named: name(channel)).pulseLeftMs(at: clock.now)
  }

  func expire() -> [String] {
    var ended: [String] = []
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    return ended
  }

  @Test mutating func anIncreaseStartsAWindowOfPulseMs() {
    let outcome = apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(outcome.channel.pulseUntil == clock.now + 3_000_000)
    #expect(store.nextPulseDeadline == clock.now + 3_000_000)
    #expect(pulseLeft("mail") == 3000)
    #expect(outcome.channel.snapshot(at: clock.now).isPulsing)
    clock.advance(us: 1)
    #expect(pulseLeft("mail") == 3000, "rounded up: a running window never reads less than it has")
    clock.advance(ms: 2999)
    #expect(pulseLeft("mail") == 1)
    clock.advance(us: 999)
    #expect(pulseLeft("mail") == 0)
  }

  @Test mutating func theWindowEndsByTimeWithoutMovingSeq() {
    apply(.write(.incr(2)), "mail", on: store, at: clock.now)
    clock.advance(ms: 2999)
    #expect(expire().isEmpty)
    #expect(store.channel(named: name("mail")).pulseUntil != 0)
    clock.advance(ms: 1)
    var ended: [Channel] = []
    store.expirePulses(now: clock.now) { ended.append($0) }
    #expect(ended.map(\.name) == [name("mail")])
    #expect(ended.first?.pulseUntil == 0)
    #expect(ended.first?.count == 2)
    #expect(ended.first?.seq == 1)
    #expect(store.seq == 1)
    #expect(store.nextPulseDeadline == nil)
    #expect(expire().isEmpty, "a window ends once")
  }

  @Test mutating func everyIncreaseRestartsTheWindow() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    let start = clock.now
    clock.advance(ms: 1000)
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(store.channel(named: name("mail")).pulseUntil == start + 4_000_000)
    clock.advance(ms: 2000)
    #expect(expire().isEmpty, "the first window's deadline no longer counts")
    #expect(pulseLeft("mail") == 1000)
    clock.advance(ms: 1000)
    #expect(expire() == ["mail"])
    clock.advance(ms: 10_000)
    #expect(expire().isEmpty)
  }

  @Test mutating func aSetAboveTheCountIsAnIncrease() {
    apply(.write(.set(3)), "mail", on: store, at: clock.now)
    clock.advance(ms: 2000)
    apply(.write(.set(5)), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 3000)
    clock.advance(ms: 1000)
    apply(.write(.set(4)), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 2000, "a decrease neither restarts nor ends the window")
    apply(.write(.decr(1)), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 2000)
  }

  @Test(arguments: [
    Store.Mutation.write(.set(0)), .write(.decr(5)), .write(.mute),
    .configure(set: SettingsOverride(muted: true), reset: []),
  ])
  mutating func reachingZeroOrMutingEndsTheWindow(_ mutation: Store.Mutation) throws {
    apply(.write(.incr(5)), "mail", on: store, at: clock.now)
    clock.advance(ms: 100)
    let outcome = try store.apply(mutation, to: name("mail"), now: clock.now)
    #expect(outcome.changed)
    #expect(outcome.channel.pulseUntil == 0)
    #expect(pulseLeft("mail") == 0)
    clock.advance(ms: 5000)
    #expect(expire().isEmpty, "a window cut short is not reported again when its time comes")
  }

  @Test mutating func clearAllEndsEveryWindow() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    apply(.write(.incr(1)), "chat", on: store, at: clock.now)
    store.writeAll(.clear(upTo: nil), now: clock.now) { #expect($0.channel.pulseUntil == 0) }
    clock.advance(ms: 3000)
    #expect(expire().isEmpty)
  }

  @Test mutating func mutedChannelsNeverPulse() {
    apply(.write(.mute), "mail", on: store, at: clock.now)
    let outcome = apply(.write(.incr(3)), "mail", on: store, at: clock.now)
    #expect(outcome.changed)
    #expect(outcome.channel.pulseUntil == 0)
    #expect(store.nextPulseDeadline == nil)
    apply(.write(.unmute), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 0, "unmuting is not an increase")
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 3000)
  }

  @Test mutating func theConfigMutesAndSetsTheWindowLength() {
    var config = DaemonConfig()
    config.defaults.pulseMs = 500
    config.sections = [
      ChannelSection(pattern: ChannelPattern("quiet:*")!, override: SettingsOverride(muted: true), line: 1),
      ChannelSection(pattern: ChannelPattern("slow")!, override: SettingsOverride(pulseMs: 10_000), line: 2),
      ChannelSection(pattern: ChannelPattern("still")!, override: SettingsOverride(pulseMs: 0), line: 3),
    ]
    let store = Store(config: config.channels)
    for channel in ["mail", "quiet:x", "slow", "still"] {
      _ = try? store.apply(.write(.incr(1)), to: name(channel), now: clock.now)
    }
    let left = ["mail", "quiet:x", "slow", "still"].map { store.channel(named: name($0)).pulseLeftMs(at: clock.now) }
    #expect(left == [500, 0, 10_000, 0])
    #expect(store.nextPulseDeadline == clock.now + 500_000)
  }

  @Test mutating func anIncreaseWithPulsingOffEndsARunningWindow() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    clock.advance(ms: 1000)
    apply(.configure(set: SettingsOverride(pulseMs: 0), reset: []), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 2000, "a new length applies from the next increase")
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(pulseLeft("mail") == 0, "the increase restarts the window with its length, 0")
    clock.advance(ms: 5000)
    #expect(expire().isEmpty)
  }

  @Test mutating func windowsEndInDeadlineOrder() {
    let lengths = ["a": 3000, "b": 1000, "c": 2000, "d": 1000]
    for (channel, ms) in lengths {
      apply(.configure(set: SettingsOverride(pulseMs: ms), reset: []), channel, on: store, at: clock.now)
      apply(.write(.incr(1)), channel, on: store, at: clock.now)
    }
    #expect(store.nextPulseDeadline == clock.now + 1_000_000)
    clock.advance(ms: 2500)
    #expect(expire().sorted() == ["b", "c", "d"])
    #expect(store.nextPulseDeadline == clock.now + 500_000)
    var order: [String] = []
    store.expirePulses(now: clock.now + 10_000_000) { order.append($0.name.description) }
    #expect(order == ["a"])
  }

  @Test mutating func expiryReportsInDeadlineOrderWhenLate() {
    for (channel, ms) in [("a", 3000), ("b", 1000), ("c", 2000)] {
      apply(.configure(set: SettingsOverride(pulseMs: ms), reset: []), channel, on: store, at: clock.now)
      apply(.write(.incr(1)), channel, on: store, at: clock.now)
    }
    clock.advance(ms: 60_000)
    #expect(expire() == ["b", "c", "a"])
  }

  @Test mutating func aWindowRestartedAtTheSameInstantEndsOnce() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    apply(.write(.set(0)), "mail", on: store, at: clock.now)
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    clock.advance(ms: 3000)
    #expect(expire() == ["mail"])
  }
}

/// `Store.pulse`: a window without a change of count (LauncherEntry's `urgent`).
@Suite struct StorePulseWithoutCountTests {
  var clock = ManualClock()
  let store = Store()

  @Test mutating func aPulseStartsAWindowAndKeepsCountAndSeq() {
    apply(.write(.incr(2)), "mail", on: store, at: clock.now)
    clock.advance(ms: 5000)
    #expect(store.channel(named: name("mail")).pulseLeftMs(at: clock.now) == 0)
    let seq = store.seq
    let channel = store.pulse(name("mail"), now: clock.now)
    #expect(channel?.pulseUntil == clock.now + 3_000_000)
    #expect(channel?.count == 2)
    #expect(store.seq == seq)
    var ended: [String] = []
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    #expect(ended.isEmpty, "the increase's old window was over; the new one runs")
    #expect(store.nextPulseDeadline == clock.now + 3_000_000)
  }

  @Test mutating func aPulseExtendsARunningWindowButNeverShortensIt() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    let first = clock.now + 3_000_000
    #expect(store.pulse(name("mail"), now: clock.now) == nil, "the same deadline: nothing moved")
    clock.advance(ms: 1000)
    #expect(store.pulse(name("mail"), now: clock.now)?.pulseUntil == first + 1_000_000)
    clock.advance(ms: 4000)
    var ended: [String] = []
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    #expect(ended == ["mail"], "only the extended window ends, once")
  }

  @Test mutating func mutedChannelsAndChannelsAtZeroDoNotPulse() throws {
    apply(.write(.incr(1)), "muted", on: store, at: clock.now)
    apply(.write(.mute), "muted", on: store, at: clock.now)
    #expect(store.pulse(name("muted"), now: clock.now) == nil)
    apply(.write(.set(0)), "zero", on: store, at: clock.now)
    #expect(store.pulse(name("zero"), now: clock.now) == nil)
    #expect(store.pulse(name("never-written"), now: clock.now) == nil)
    #expect(!store.channels.contains { $0.name == name("never-written") })
  }

  @Test mutating func pulseMsZeroDoesNotPulse() {
    apply(.configure(set: SettingsOverride(pulseMs: 0), reset: []), "quiet", on: store, at: clock.now)
    apply(.write(.incr(1)), "quiet", on: store, at: clock.now)
    #expect(store.pulse(name("quiet"), now: clock.now) == nil)
  }
}
