import BadgeConfig
import TestSupport
import Testing

@testable import BadgeCore

/// Do-not-disturb and pulses on demand, driven by a clock the test moves.
@Suite struct StoreAttentionTests {
  var clock = ManualClock()
  let store: Store

  init() {
    var config = DaemonConfig()
    config.dndBadges = .dim
    config.sections = [
      ChannelSection(pattern: ChannelPattern("pager")!, override: SettingsOverride(dnd: .ignore), line: 1)
    ]
    store = Store(config: config.channels)
  }

  func channel(_ text: String) -> Channel { store.channel(named: name(text)) }

  @Test mutating func pulseStartsAWindowWithoutAChange() {
    apply(.write(.incr(2)), "mail", on: store, at: clock.now)
    clock.advance(ms: 5000)
    let seq = store.seq
    let pulsed = store.pulse(name("mail"), now: clock.now)
    #expect(pulsed?.pulseLeftMs(at: clock.now) == 3000)
    #expect(pulsed?.count == 2 && store.seq == seq && channel("mail").seq == seq)
    #expect(channel("mail").pulseUntil == clock.now + 3_000_000)
  }

  @Test mutating func pulseTakesItsOwnLengthAndNeverShortensAWindow() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    #expect(store.pulse(name("mail"), for: 1000, now: clock.now) == nil, "3000 ms are left: 1000 would shorten it")
    let longer = store.pulse(name("mail"), for: 10_000, now: clock.now)
    #expect(longer?.pulseLeftMs(at: clock.now) == 10_000)
    clock.advance(ms: 10_000)
    var ended: [String] = []
    store.expirePulses(now: clock.now) { ended.append($0.name.description) }
    #expect(ended == ["mail"], "the earlier deadline was passed over: one end")
  }

  @Test mutating func pulseRefusesSilentlyWhatAnIncreaseWouldNotPulse() {
    #expect(store.pulse(name("never"), now: clock.now) == nil)
    apply(.write(.incr(1)), "muted", on: store, at: clock.now)
    apply(.write(.mute), "muted", on: store, at: clock.now)
    #expect(store.pulse(name("muted"), now: clock.now) == nil)
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    apply(.write(.set(0)), "mail", on: store, at: clock.now)
    #expect(store.pulse(name("mail"), now: clock.now) == nil, "nothing to pulse at 0")
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    #expect(store.pulse(name("mail"), now: clock.now) == nil)
  }

  @Test mutating func dndSilencesObeyingChannelsAndEndsTheirWindows() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    apply(.write(.incr(1)), "pager", on: store, at: clock.now)
    let seq = store.seq
    var changed: [String] = []
    #expect(store.setDND(DoNotDisturb(isOn: true, until: 0)) { changed.append($0.name.description) })
    #expect(changed == ["mail"], "pager has dnd = ignore")
    #expect(channel("mail").silenced == .dim && channel("mail").pulseUntil == 0)
    #expect(channel("pager").silenced == nil && channel("pager").pulseLeftMs(at: clock.now) == 3000)
    #expect(store.seq == seq, "how a channel shows is not a change of it")
    #expect(!store.setDND(DoNotDisturb(isOn: true, until: 0)), "on again: nothing changes")
  }

  @Test mutating func countsGoOnUnderDNDWithoutPulsing() {
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    let outcome = apply(.write(.incr(3)), "mail", on: store, at: clock.now)
    #expect(outcome.channel.count == 3 && outcome.channel.pulseUntil == 0)
    #expect(outcome.channel.silenced == .dim)
    #expect(channel("never").silenced == .dim, "a channel never written reads as silenced too")
    let pager = apply(.write(.incr(1)), "pager", on: store, at: clock.now)
    #expect(pager.channel.pulseLeftMs(at: clock.now) == 3000)
  }

  @Test mutating func aTimedDNDEndsOnTime() {
    apply(.write(.incr(1)), "mail", on: store, at: clock.now)
    store.setDND(DoNotDisturb(isOn: true, until: clock.now + 1_800_000_000))
    #expect(store.nextDNDDeadline == clock.now + 1_800_000_000)
    #expect(store.dnd.leftMs(at: clock.now) == 1_800_000)
    clock.advance(ms: 1_799_999)
    #expect(!store.expireDND(now: clock.now))
    #expect(store.dnd.leftMs(at: clock.now) == 1)
    clock.advance(ms: 1)
    var changed: [String] = []
    #expect(store.expireDND(now: clock.now) { changed.append($0.name.description) })
    #expect(changed == ["mail"] && channel("mail").silenced == nil)
    #expect(store.dnd == .off && store.nextDNDDeadline == nil)
  }

  @Test mutating func anUntimedDNDHasNoDeadline() {
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    #expect(store.nextDNDDeadline == nil)
    #expect(store.dnd.leftMs(at: clock.now) == 0)
    clock.advance(ms: 100_000_000)
    #expect(!store.expireDND(now: clock.now))
  }

  @Test func aReloadFollowsDNDBadgesAndPolicies() {
    store.setDND(DoNotDisturb(isOn: true, until: 0))
    apply(.write(.incr(1)), "mail", on: store)
    var config = store.config
    config.dndBadges = .hide
    var changed: [String] = []
    store.reconfigure(config) { changed.append($0.name.description) }
    #expect(channel("mail").silenced == .hide)
    #expect(changed.contains("mail"))
    apply(.configure(set: SettingsOverride(dnd: .ignore), reset: []), "mail", on: store)
    #expect(channel("mail").silenced == nil)
  }
}
