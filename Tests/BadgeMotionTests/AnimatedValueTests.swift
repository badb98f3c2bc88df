import TestSupport
import Testing

@testable import BadgeMotion

/// The badge bounce model of MOTION.md: to 1.3 with (0.3, 0.5), retargeted at 0.12 s to 1.0
/// with (0.25, 0.6), keeping position and velocity.
@Suite struct BadgeBounceModelTests {
  static func bounce() -> AnimatedValue {
    var scale = AnimatedValue(1)
    scale.animate(to: 1.3, with: .spring(response: 0.3, dampingFraction: 0.5), at: 0)
    scale.animate(to: 1.0, with: .spring(response: 0.25, dampingFraction: 0.6), at: 0.12)
    return scale
  }

  @Test func referenceValues() {
    let scale = Self.bounce()
    let table: [(Double, Double)] = [
      (0.05, 1.109683), (0.10, 1.266336), (0.15, 1.275239), (0.20, 1.090879),
      (0.25, 0.984894), (0.30, 0.972267), (0.40, 1.000775),
    ]
    for (time, value) in table {
      expectClose(scale.value(at: time), value)
    }
  }

  @Test func retargetState() {
    let state = Self.bounce().state(at: 0.12)
    expectClose(state.value, 1.308092)
    expectClose(state.velocity, 1.697, 0.0005)
  }

  @Test func peak() {
    let scale = Self.bounce()
    var best = (time: 0.0, value: 0.0)
    for step in 0...4000 {
      let time = Double(step) / 10_000
      let value = scale.value(at: time)
      if value > best.value { best = (time, value) }
    }
    expectClose(best.value, 1.3143, 0.0001)  // MOTION.md: "peak ~1.3143"
    expectClose(best.time, 0.128, 0.0005)
  }

  @Test func retargetIsContinuousInPositionAndVelocity() {
    let scale = Self.bounce()
    let h = 1e-9
    let before = scale.state(at: 0.12 - h)
    let after = scale.state(at: 0.12)
    expectClose(before.value, after.value, 1e-8)
    expectClose(before.velocity, after.velocity, 1e-5)
  }

  @Test func restsExactlyAtOneOnceSettled() throws {
    let scale = Self.bounce()
    let settled = try #require(scale.nextChange(after: 0.5)).isFinite
    #expect(settled)
    #expect(scale.value(at: 2) == 1)
    #expect(scale.nextChange(after: 2) == nil)
    #expect(!scale.isMoving(at: 2))
  }
}

/// Applying, scheduling and cancelling animations on one value.
@Suite struct AnimatedValueTests {
  @Test func restingValueNeverChanges() {
    let value = AnimatedValue(3)
    #expect(value.value(at: -100) == 3)
    #expect(value.value(at: 100) == 3)
    #expect(value.nextChange(after: 0) == nil)
    #expect(value.finalValue == 3)
  }

  @Test func jumpIsImmediateAndSchedulable() {
    var value = AnimatedValue(0)
    value.set(5, at: 2)
    #expect(value.value(at: 1.999) == 0)
    #expect(value.value(at: 2) == 5)
    #expect(value.nextChange(after: 1) == 2)
    #expect(value.nextChange(after: 2) == nil)
  }

  @Test func timingCurveEndsExactlyAtItsDuration() {
    var value = AnimatedValue(0)
    value.animate(to: 10, with: .easeOut(duration: 0.75), at: 1)
    expectClose(value.value(at: 1.1875), 3.78138, 1e-5)
    #expect(value.isMoving(at: 1.5))
    #expect(value.nextChange(after: 1.5) == 1.5)
    #expect(value.value(at: 1.75) == 10)
    #expect(value.nextChange(after: 1.75) == nil)
  }

  @Test func delayHoldsThePreviousMotionUntilItStarts() {
    var value = AnimatedValue(0)
    value.animate(to: 1, with: .linear(duration: 1).delay(0.5), at: 0)
    #expect(value.value(at: 0.4) == 0)
    #expect(value.nextChange(after: 0.1) == 0.5)
    expectClose(value.value(at: 1.0), 0.5, 1e-12)
  }

  @Test func newAnimationReplacesWhatWasScheduledAfterIt() {
    var value = BadgeBounceModelTests.bounce()
    // A second change at 0.05 restarts the bounce: the retarget scheduled for 0.12 is gone.
    value.animate(to: 1.3, with: .spring(response: 0.3, dampingFraction: 0.5), at: 0.05)
    #expect(value.value(at: 0.5) > 1.25)
  }

  @Test func setThenAnimateAtTheSameInstantRestartsFromTheSetValue() {
    var roll = AnimatedValue(1)
    roll.set(0, at: 2)
    roll.animate(to: 1, with: .snappy(duration: 0.25), at: 2)
    #expect(roll.value(at: 2) == 0)
    #expect(roll.isMoving(at: 2.1))
    expectClose(roll.value(at: 2.1), 0.786369)
  }

  @Test func repeatForeverMovesUntilStopped() {
    var dot = AnimatedValue(1)
    dot.animate(to: 1.5, with: .easeInOut(duration: 0.8).repeatForever(), at: 10)
    dot.set(1, at: 13)
    expectClose(dot.value(at: 10.4), 1.25)
    #expect(dot.nextChange(after: 12.9) == 12.9)
    #expect(dot.value(at: 13) == 1)
    #expect(dot.nextChange(after: 13) == nil)
    #expect(dot.finalValue == 1)
  }

  @Test func cancelAfterKeepsTheRunningMotionAndDropsTheScheduledStop() {
    var dot = AnimatedValue(1)
    dot.animate(to: 1.5, with: .easeInOut(duration: 0.8).repeatForever(), at: 0)
    dot.set(1, at: 3)
    dot.cancel(after: 1)
    #expect(dot.isMoving(at: 3.2))
    #expect(dot.finalValue == 1)  // a repeating animation rests where its cycle starts
    dot.set(1, at: 5)
    #expect(dot.isMoving(at: 4.9))
    #expect(!dot.isMoving(at: 5))
  }

  @Test func retargetFromTimingCurveIntoSpringKeepsVelocity() {
    var value = AnimatedValue(0)
    value.animate(to: 1, with: .linear(duration: 1), at: 0)
    value.animate(to: 0, with: .snappy, at: 0.5)
    let state = value.state(at: 0.5)
    expectClose(state.value, 0.5, 1e-12)
    expectClose(state.velocity, 1, 1e-9)
  }

  @Test func retargetToTheSameValueStillMovesWithTheVelocity() {
    var value = AnimatedValue(0)
    value.animate(to: 1, with: .linear(duration: 1), at: 0)
    value.animate(to: 0.5, with: .smooth, at: 0.5)
    #expect(value.value(at: 0.55) > 0.5)
    #expect(value.isMoving(at: 0.55))
  }

  @Test func manualClockStepByStep() {
    var value = AnimatedValue(0)
    value.animate(to: 1, with: .spring(response: 0.3, dampingFraction: 0.5), at: 0)
    var clock = 0.0
    var frames = 0
    while let next = value.nextChange(after: clock) {
      clock = next == clock ? clock + 1.0 / 60 : next
      frames += 1
    }
    #expect(value.value(at: clock) == 1)
    expectClose(clock, 0.9, 1.0 / 60)
    #expect(frames == Int((Spring(response: 0.3, dampingRatio: 0.5).settlingDuration * 60).rounded(.up)))
  }
}

/// A named set of values.
@Suite struct TimelineTests {
  enum Property: Hashable, Sendable { case scale, opacity }

  @Test func everyPropertyAtATimeAndTheNextChange() {
    var timeline = Timeline<Property>([.scale: 1, .opacity: 1])
    #expect(timeline.nextChange(after: 0) == nil)
    timeline[.opacity].animate(to: 0, with: .easeIn(duration: 0.5), at: 1)
    timeline[.scale].set(2, at: 3)
    #expect(timeline.values(at: 0) == [.scale: 1, .opacity: 1])
    #expect(timeline.nextChange(after: 0) == 1)
    #expect(timeline.nextChange(after: 1.2) == 1.2)
    #expect(timeline.isMoving(at: 1.2))
    #expect(timeline.nextChange(after: 1.5) == 3)
    #expect(timeline.values(at: 3) == [.scale: 2, .opacity: 0])
    #expect(timeline.nextChange(after: 3) == nil)
  }

  @Test func unknownKeyReadsAsZero() {
    let timeline = Timeline<Property>([:])
    #expect(timeline.value(.scale, at: 0) == 0)
  }
}
