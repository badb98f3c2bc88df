import BadgeCore
import BadgeMesh
import Testing

/// Shared do-not-disturb's order: a heard change goes to the daemon only when it is greater,
/// by (at, host), than what the daemon is on and what was handed to it; the daemon's reports
/// are published with the stamp it gave them, a timed one's end not at all.
@Suite struct DNDSyncTests {
  static func laptop(_ on: Bool, at: Int64, until: Int64 = 0, host: String = "laptop") -> DNDState {
    DNDState(on: on, until: until, at: at, host: host)
  }

  @Test func aGreaterChangeIsForTheDaemonAndAnotherIsNot() {
    var sync = DNDSync(host: "desktop")
    _ = sync.reported(on: false, leftMs: 0, from: nil, at: 50, nowMs: 60)
    let verdicts = [
      sync.heard(Self.laptop(true, at: 100)),
      {
        sync.handing(Self.laptop(true, at: 100))
        return sync.heard(Self.laptop(false, at: 99, host: "nas"))
      }(),
      sync.heard(Self.laptop(false, at: 100)),  // the same change, heard again
      // The same millisecond: the greater host is the later change.
      sync.heard(Self.laptop(false, at: 100, host: "nas")),
      sync.heard(Self.laptop(false, at: 100, host: "attic")),
    ]
    #expect(verdicts == [true, false, false, true, false])
    #expect(sync.greatestHeard == Self.laptop(false, at: 100, host: "nas"))
  }

  @Test func aChangeTheDaemonTookIsPublishedAsItWasHeard() {
    var sync = DNDSync(host: "desktop")
    let heard = Self.laptop(true, at: 100, until: 300_100)
    let verdict = sync.heard(heard)
    #expect(verdict)
    sync.handing(heard)
    // The daemon reports what is left of it, a millisecond later: the `until` stays the one heard.
    let taken = sync.reported(on: true, leftMs: 299_998, from: "laptop", at: 100, nowMs: 101)
    #expect(taken == heard)
    #expect(sync.effective == heard)
    // Its end by time: the same change, nothing to publish.
    let ended = sync.reported(on: false, leftMs: 0, from: "laptop", at: 100, nowMs: 300_100)
    #expect(ended == nil)
  }

  @Test func aChangeMadeHereIsPublishedWithTheDaemonsStamp() {
    var sync = DNDSync(host: "desktop")
    let made = sync.reported(on: true, leftMs: 1000, from: nil, at: 5000, nowMs: 5002)
    #expect(made == DNDState(on: true, until: 6002, at: 5000, host: "desktop"))
    let again = sync.reported(on: true, leftMs: 998, from: nil, at: 5000, nowMs: 5004)
    #expect(again == nil, "reported again")
    let heardBack = sync.heard(DNDState(on: true, until: 6002, at: 5000, host: "desktop"))
    #expect(!heardBack)
    var fresh = DNDSync(host: "desktop")
    let neverChanged = fresh.reported(on: false, leftMs: 0, from: nil, at: nil, nowMs: 5000)
    #expect(neverChanged == DNDState(on: false, until: 0, at: 1, host: "desktop"))
  }

  /// A change heard while the daemon was away, or handed to a connection that ended before it
  /// was taken: due once the daemon is ready, unless the daemon is on it or a greater one.
  @Test func theGreatestHeardIsDueForADaemonNotOnIt() {
    var sync = DNDSync(host: "desktop")
    let nas = Self.laptop(false, at: 200, host: "nas")
    var due = [sync.due()]
    let verdicts = [sync.heard(Self.laptop(true, at: 100)), sync.heard(nas)]
    due.append(sync.due())
    sync.handing(nas)
    // The connection ended before the daemon took it; the next one is on an older change.
    _ = sync.reported(on: true, leftMs: 0, from: "laptop", at: 100, nowMs: 300)
    due.append(sync.due())
    _ = sync.reported(on: false, leftMs: 0, from: "nas", at: 200, nowMs: 300)
    due.append(sync.due())
    #expect(verdicts == [true, true])
    #expect(due == [nil, nas, nas, nil])
  }

  @Test func theTimedEndIsKeptOnlyWhileOn() {
    #expect(DNDState(on: false, until: 99, at: 1, host: "a").until == 0)
    #expect(DNDState(on: true, until: 99, at: 1, host: "a").until == 99)
  }
}
