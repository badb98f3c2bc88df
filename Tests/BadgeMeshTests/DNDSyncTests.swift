import BadgeCore
import BadgeMesh
import Testing

/// Shared do-not-disturb: the newest change wins everywhere, by (at, host).
@Suite struct DNDSyncTests {
  @Test func aNewerChangeIsAppliedAndAnOlderOneIsNot() {
    var sync = DNDSync(host: "desktop")
    let verdict1 = sync.heard(DNDState(on: true, until: 0, at: 100, host: "laptop"))
    #expect(verdict1 == .apply)
    let verdict2 = sync.heard(DNDState(on: false, until: 0, at: 99, host: "nas"))
    #expect(verdict2 == .stale)
    let verdict3 = sync.heard(DNDState(on: false, until: 0, at: 100, host: "laptop"))
    #expect(verdict3 == .stale)
    // The same millisecond: the greater host is the later change.
    let verdict4 = sync.heard(DNDState(on: false, until: 0, at: 100, host: "nas"))
    #expect(verdict4 == .apply)
    #expect(sync.newest == DNDStamp(at: 100, host: "nas"))
  }

  @Test func aChangeMadeHereOrdersAfterEverythingKnown() {
    var sync = DNDSync(host: "desktop")
    _ = sync.heard(DNDState(on: true, until: 0, at: 5000, host: "laptop"))
    // desktop's clock is behind: its change still wins over the one it saw.
    let made = sync.made(on: false, until: 0, now: 4000)
    #expect(made == DNDState(on: false, until: 0, at: 5001, host: "desktop"))
    let verdict5 = sync.heard(made)
    #expect(verdict5 == .own)
    var laptop = DNDSync(host: "laptop")
    _ = laptop.heard(DNDState(on: true, until: 0, at: 5000, host: "laptop"))
    let verdict6 = laptop.heard(made)
    #expect(verdict6 == .apply)
  }

  @Test func ownStatesFromBeforeARestartAreKeptButNotApplied() {
    var sync = DNDSync(host: "desktop")
    let verdict7 = sync.heard(DNDState(on: true, until: 900, at: 300, host: "desktop"))
    #expect(verdict7 == .own)
    let verdict8 = sync.heard(DNDState(on: false, until: 0, at: 200, host: "laptop"))
    #expect(verdict8 == .stale)
  }

  @Test func theTimedEndIsKeptOnlyWhileOn() {
    #expect(DNDState(on: false, until: 99, at: 1, host: "a").until == 0)
    #expect(DNDState(on: true, until: 99, at: 1, host: "a").until == 99)
  }
}
