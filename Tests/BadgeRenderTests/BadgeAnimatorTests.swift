import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// A count change: the bounce of MOTION.md's badge model and the digit roll.
@Suite struct CountChangeTests {
  static func changed(from old: Int, to new: Int) -> BadgeAnimator {
    var animator = BadgeAnimator(snapshot(count: old), at: 10)
    animator.update(snapshot(count: new), at: 10)
    return animator
  }

  @Test func firstSnapshotShowsWithoutMotion() {
    let animator = BadgeAnimator(snapshot(count: 4, pulseMs: 0), at: 10)
    #expect(animator.frame(at: 10) == BadgeFrame(channel: "mail", count: 4, label: "4", seq: 1))
    #expect(animator.nextWake(after: 10) == nil)
  }

  @Test func bounceFollowsTheBadgeModel() {
    let animator = Self.changed(from: 3, to: 4)
    let model: [(Double, Double)] = [
      (0.05, 1.109683), (0.10, 1.266336), (0.12, 1.308092), (0.15, 1.275239), (0.20, 1.090879),
      (0.25, 0.984894), (0.30, 0.972267), (0.40, 1.000775),
    ]
    for (elapsed, scale) in model {
      let frame = animator.frame(at: 10 + elapsed)
      expectClose(frame.scale, scale)
      expectClose(frame.elapsed, elapsed, 1e-9)
      #expect(frame.opacity == 1)
    }
  }

  @Test func settlesExactlyAndThenSleeps() throws {
    var animator = Self.changed(from: 3, to: 4)
    let settle = 0.12 + 0.583740  // the retarget's settling time from (1.308092, 1.697/s)
    var settled = animator.frame(at: 10 + settle + 0.001)
    expectClose(settled.elapsed, settle + 0.001, 1e-9)
    settled.elapsed = 0
    #expect(settled == BadgeFrame(channel: "mail", count: 4, label: "4", seq: 1))
    #expect(animator.nextWake(after: 10 + settle + 0.001) == nil)
    animator.update(snapshot(count: 4), at: 12)  // a repeat of the same state is not a change
    #expect(animator.nextWake(after: 12) == nil)
  }

  @Test func rollsUpWhenTheCountGrows() throws {
    let frame = Self.changed(from: 3, to: 4).frame(at: 10.05)
    let roll = try #require(frame.roll)
    #expect(roll.from == "3")
    #expect(roll.direction == .up)
    expectClose(roll.offset, 0.611898)
    expectClose(roll.outgoingOffset, -0.388102)
  }

  @Test func rollsDownWhenTheCountShrinks() throws {
    let frame = Self.changed(from: 10, to: 9).frame(at: 10.05)
    let roll = try #require(frame.roll)
    #expect(roll == Roll(from: "10", direction: .down, offset: roll.offset))
    expectClose(roll.offset, -0.611898)
    expectClose(roll.outgoingOffset, 0.388102)
  }

  @Test func rollEndsWhenItsSpringSettles() {
    let animator = Self.changed(from: 3, to: 4)
    #expect(animator.frame(at: 10.46).roll != nil)
    #expect(animator.frame(at: 10.47).roll == nil)  // snappy(0.25) settles at 0.469 s
  }

  @Test func sameLabelBouncesWithoutRolling() {
    let animator = Self.changed(from: 120, to: 130)
    #expect(animator.frame(at: 10.05).roll == nil)
    expectClose(animator.frame(at: 10.05).scale, 1.109683)
  }

  @Test func secondChangeRestartsFromWhereTheBadgeIs() {
    var animator = Self.changed(from: 3, to: 4)
    let before = animator.frame(at: 10.06).scale
    animator.update(snapshot(count: 5), at: 10.06)
    expectClose(animator.frame(at: 10.06).scale, before, 1e-12)
    #expect(animator.frame(at: 10.06).roll?.from == "4")
    #expect(animator.frame(at: 10.06).elapsed == 0)
  }

  @Test func watcherLimitComputesItsOwnLabel() {
    var animator = BadgeAnimator(snapshot(count: 8), at: 0, options: AnimatorOptions(maxLabel: 9))
    animator.update(snapshot(count: 12), at: 1)
    let frame = animator.frame(at: 2)
    #expect(frame.label == "9+")
    #expect(frame.drawnLabel == "9+")
    #expect(frame.isTruncated)
    #expect(animator.frame(at: 1.05).roll?.from == "8")
  }
}

/// Appearing from 0 and clearing to 0.
@Suite struct AppearAndClearTests {
  @Test func appearingFadesInAndBouncesFromHalfSize() {
    var animator = BadgeAnimator(snapshot(count: 0), at: 0)
    #expect(animator.frame(at: 0).isHidden)
    animator.update(snapshot(count: 1), at: 1)
    let start = animator.frame(at: 1)
    #expect(start.scale == 0.5)
    #expect(start.opacity == 0)
    #expect(start.roll == nil)
    expectClose(animator.frame(at: 1.128).scale, 1.347550)
    expectClose(animator.frame(at: 1.1).opacity, 1 - 0.381058)
    #expect(animator.frame(at: 2).opacity == 1)
    #expect(animator.frame(at: 2).scale == 1)
  }

  @Test func clearingKeepsTheOldLabelWhileItFades() {
    var animator = BadgeAnimator(snapshot(count: 3), at: 0)
    animator.update(snapshot(count: 0), at: 1)
    let fading = animator.frame(at: 1.1)
    #expect(fading.label == "")
    #expect(fading.drawnLabel == "3")
    #expect(!fading.isHidden)
    expectClose(fading.opacity, 0.381058)
    expectClose(fading.scale, 0.690529)
    let gone = animator.frame(at: 1.48)  // the fade settles at 0.4774 s
    #expect(gone.drawnLabel == "")
    #expect(gone.isHidden)
    #expect(animator.nextWake(after: 1.48) == nil)
  }

  @Test func reappearingMidFadeTurnsBackWithoutJumping() {
    var animator = BadgeAnimator(snapshot(count: 3), at: 0)
    animator.update(snapshot(count: 0), at: 1)
    let midway = animator.frame(at: 1.1)
    animator.update(snapshot(count: 2), at: 1.1)
    let back = animator.frame(at: 1.1)
    expectClose(back.opacity, midway.opacity, 1e-12)
    expectClose(back.scale, midway.scale, 1e-12)
    #expect(back.drawnLabel == "2")
    #expect(animator.frame(at: 3).opacity == 1)
  }

  @Test func dotAppearsWithoutBouncing() {
    var animator = BadgeAnimator(snapshot("alerts", count: 0, dot: true), at: 0)
    animator.update(snapshot("alerts", count: 1, dot: true), at: 1)
    #expect(animator.frame(at: 1.2).scale < 1)
    var peak = 0.0
    for step in 0...100 { peak = max(peak, animator.frame(at: 1 + Double(step) / 100).scale) }
    #expect(peak == 1)
  }
}

/// The dot's pulse window.
@Suite struct PulseTests {
  static func pulsing() -> BadgeAnimator {
    var animator = BadgeAnimator(snapshot("alerts", count: 2, dot: true), at: 20)
    animator.update(snapshot("alerts", count: 3, dot: true, pulseMs: 3000), at: 20)
    return animator
  }

  @Test func pulseFollowsEaseInOutAutoreversing() {
    let animator = Self.pulsing()
    let table: [(Double, Double)] = [
      (0.2, 0.129162), (0.4, 0.5), (0.6, 0.870838), (0.8, 1), (1.0, 0.870838), (1.2, 0.5), (1.6, 0),
    ]
    for (elapsed, p) in table {
      let frame = animator.frame(at: 20 + elapsed)
      expectClose(frame.dotScale, 1 + 0.5 * p)
      expectClose(frame.dotOpacity, 1 - 0.6 * p)
      #expect(frame.pulsing)
      #expect(frame.scale == 1)  // a dot does not bounce
    }
  }

  @Test func stopsAtTheWindowEndAndStaysStill() {
    let animator = Self.pulsing()
    #expect(animator.frame(at: 22.99).pulsing)
    #expect(animator.nextWake(after: 22.99) == 23)
    let stopped = animator.frame(at: 23)
    #expect(!stopped.pulsing)
    #expect(stopped.dotScale == 1)
    #expect(stopped.dotOpacity == 1)
    #expect(animator.nextWake(after: 23) == nil)
  }

  @Test func anUpdateEndingTheWindowStopsItEarly() {
    var animator = Self.pulsing()
    animator.update(snapshot("alerts", count: 3, dot: true, pulseMs: 0), at: 21.3)
    #expect(!animator.frame(at: 21.3).pulsing)
    #expect(animator.frame(at: 21.3).dotScale == 1)
    #expect(animator.nextWake(after: 21.3) == nil)
  }

  @Test func aNewWindowMovesTheEndWithoutRestartingThePhase() {
    var animator = Self.pulsing()
    let before = animator.frame(at: 21.3)
    animator.update(snapshot("alerts", count: 4, dot: true, pulseMs: 3000), at: 21.3)
    let after = animator.frame(at: 21.3)
    #expect(after.dotScale == before.dotScale)
    #expect(animator.frame(at: 23.5).pulsing)
    #expect(animator.frame(at: 24.3).dotScale == 1)
    #expect(animator.nextWake(after: 24.3) == nil)
  }

  @Test func mutedNeverPulses() {
    var animator = BadgeAnimator(snapshot("alerts", count: 2, dot: true, muted: true), at: 0)
    animator.update(snapshot("alerts", count: 3, dot: true, pulseMs: 3000, muted: true), at: 0)
    #expect(!animator.frame(at: 0.4).pulsing)
    #expect(animator.frame(at: 0.4).dotScale == 1)
    #expect(animator.nextWake(after: 0.4) == nil)
  }

  @Test func goingOfflineStopsThePulse() {
    var animator = Self.pulsing()
    animator.update(snapshot("alerts", count: 3, dot: true, pulseMs: 2000, online: false), at: 21)
    #expect(!animator.frame(at: 21).pulsing)
    #expect(animator.nextWake(after: 21) == nil)
  }

  @Test func countStylePulsesOnlyAsAFlagButStillWakesAtTheEnd() {
    var animator = BadgeAnimator(snapshot(count: 2), at: 0)
    animator.update(snapshot(count: 3, pulseMs: 3000), at: 0)
    #expect(animator.frame(at: 1).pulsing)
    #expect(animator.frame(at: 1).dotScale == 1)
    #expect(animator.nextWake(after: 1) == 3)
    #expect(!animator.frame(at: 3).pulsing)
    #expect(animator.nextWake(after: 3) == nil)
  }
}

/// Reduced motion and the wake grid.
@Suite struct MotionOptionsTests {
  @Test func noMotionShowsEndStatesAndNeverWakes() {
    let options = AnimatorOptions(noMotion: true)
    var animator = BadgeAnimator(snapshot("alerts", count: 2, dot: true), at: 0, options: options)
    animator.update(snapshot("alerts", count: 3, dot: true, pulseMs: 3000), at: 1)
    var frame = animator.frame(at: 1.4)
    expectClose(frame.elapsed, 0.4, 1e-9)
    frame.elapsed = 0
    #expect(
      frame == BadgeFrame(channel: "alerts", count: 3, label: "•", dot: true, pulsing: true, pulseMs: 2600, seq: 1))
    #expect(animator.nextWake(after: 1.4) == nil)
    animator.update(snapshot("alerts", count: 0, dot: true), at: 2)
    #expect(animator.frame(at: 2).isHidden)
    animator.update(snapshot("alerts", count: 5, dot: true), at: 3)
    #expect(animator.frame(at: 3).opacity == 1)
    #expect(animator.frame(at: 3).scale == 1)
    #expect(animator.nextWake(after: 3) == nil)
  }

  @Test func noMotionCountChangeNeitherBouncesNorRolls() {
    var animator = BadgeAnimator(snapshot(count: 3), at: 0, options: AnimatorOptions(noMotion: true))
    animator.update(snapshot(count: 4), at: 1)
    #expect(animator.frame(at: 1).scale == 1)
    #expect(animator.frame(at: 1).roll == nil)
  }

  @Test func wakesSitOnTheFrameGrid() throws {
    var animator = BadgeAnimator(snapshot(count: 3), at: 0, options: AnimatorOptions(frameInterval: 0.1))
    animator.update(snapshot(count: 4), at: 1.234)
    expectClose(try #require(animator.nextWake(after: 1.234)), 1.3, 1e-12)
    expectClose(try #require(animator.nextWake(after: 1.3)), 1.4, 1e-12)
  }
}

/// Several channels under one watcher.
@Suite struct AnimatorGroupTests {
  @Test func channelsKeepTheOrderTheyArrivedIn() {
    var group = AnimatorGroup()
    group.update(snapshot("mail", count: 1), at: 0)
    group.update(snapshot("ci", count: 2), at: 0)
    group.update(snapshot("mail", count: 3), at: 1)
    #expect(group.frames(at: 2).map(\.channel) == ["mail", "ci"])
    #expect(group.frames(at: 2).map(\.count) == [3, 2])
    group.remove(channel: "mail")
    #expect(group.frames(at: 2).map(\.channel) == ["ci"])
  }

  @Test func oneWakeServesEveryChannel() {
    var group = AnimatorGroup()
    group.update(snapshot("mail", count: 1), at: 0)
    group.update(snapshot("ci", count: 2), at: 0)
    #expect(group.nextWake(after: 0) == nil)
    group.update(snapshot("ci", count: 3, pulseMs: 3000), at: 0.5)
    #expect(group.nextWake(after: 0.5) == FrameRate.tick(after: 0.5, interval: 1.0 / 30))
  }

  @Test func offlineKeepsTheLastCounts() {
    var group = AnimatorGroup()
    group.update(snapshot("mail", count: 4), at: 0)
    group.setOnline(false, at: 1)
    let frame = group.frames(at: 1)[0]
    #expect(!frame.online)
    #expect(frame.count == 4)
    #expect(group.nextWake(after: 1) == nil)
    group.setOnline(true, at: 2)
    #expect(group.frames(at: 2)[0].online)
  }
}
