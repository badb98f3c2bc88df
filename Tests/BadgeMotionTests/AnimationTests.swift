import TestSupport
import Testing

@testable import BadgeMotion

/// `Animation` descriptions and how they run.
@Suite struct AnimationTests {
  @Test func bareTimingCurvesLastThirtyFiveHundredths() {
    #expect(Animation.easeInOut == .timingCurve(.easeInOut, duration: 0.35))
    #expect(Animation.linear.cycleDuration == 0.35)
    #expect(Animation.easeIn.duration(from: 0, to: 1, velocity: 0) == 0.35)
  }

  @Test func springVocabulary() {
    #expect(Animation.spring() == .spring(Spring(response: 0.5, dampingRatio: 0.825)))
    #expect(
      Animation.spring(duration: 0.3, bounce: 0.5) == .spring(response: 0.3, dampingFraction: 0.5))
    #expect(Animation.default == .spring(response: 0.55, dampingFraction: 1))
    #expect(Animation.bouncy(duration: 0.35) == .spring(.bouncy(duration: 0.35)))
    #expect(Animation.snappy == .spring(.snappy))
  }

  /// MOTION.md: the pulsing dot's p over easeInOut(0.8) autoreversing.
  @Test func repeatForeverAutoreversingTable() {
    let pulse = Animation.easeInOut(duration: 0.8).repeatForever(autoreverses: true)
    let table: [(Double, Double)] = [
      (0.2, 0.129162), (0.4, 0.5), (0.6, 0.870838), (0.8, 1), (1.0, 0.870838), (1.2, 0.5),
      (1.6, 0),
    ]
    for (time, p) in table {
      expectClose(pulse.progress(at: time), p)
    }
  }

  @Test func pulsingDotAtPointFour() {
    let pulse = Animation.easeInOut(duration: 0.8).repeatForever()
    let scale = pulse.state(from: 1, to: 1.5, velocity: 0, elapsed: 0.4).value
    let opacity = pulse.state(from: 1, to: 0.4, velocity: 0, elapsed: 0.4).value
    expectClose(scale, 1.25)
    expectClose(opacity, 0.7)
  }

  @Test func repeatWithoutAutoreverseStartsEachCycleOver() {
    let pulse = Animation.linear(duration: 1).repeatForever(autoreverses: false)
    expectClose(pulse.progress(at: 0.25), 0.25, 1e-12)
    expectClose(pulse.progress(at: 1.25), 0.25, 1e-12)
    #expect(pulse.duration(from: 0, to: 1, velocity: 0) == .infinity)
  }

  @Test func repeatingVelocityIsItsDerivative() {
    let pulse = Animation.easeInOut(duration: 0.8).repeatForever()
    let h = 1e-6
    for time in [0.1, 0.3, 0.9, 1.1, 1.5] {
      let numeric = (pulse.progress(at: time + h) - pulse.progress(at: time - h)) / (2 * h)
      let state = pulse.state(from: 0, to: 1, velocity: 0, elapsed: time)
      expectClose(state.velocity, numeric, 1e-5)
    }
  }

  @Test func timingCurveIgnoresStartingVelocityButSpringKeepsIt() {
    let curve = Animation.easeOut(duration: 0.5)
    let still = curve.state(from: 0, to: 1, velocity: 0, elapsed: 0.1)
    #expect(curve.state(from: 0, to: 1, velocity: 9, elapsed: 0.1) == still)
    expectClose(curve.state(from: 0, to: 1, velocity: 9, elapsed: 0).velocity, 1 / 0.58 / 0.5, 1e-4)
    let spring = Animation.spring(response: 0.3, dampingFraction: 0.5)
    expectClose(spring.state(from: 0, to: 1, velocity: 9, elapsed: 0).velocity, 9, 1e-9)
  }

  @Test func delayIsKept() {
    #expect(Animation.easeIn.delay(0.2).delay == 0.2)
    #expect(Animation.easeIn.delay(-1).delay == 0)
  }
}
