import Glibc
import TestSupport
import Testing

@testable import BadgeMotion

/// Properties every spring must have, whatever its regime.
@Suite struct SpringPropertyTests {
  static let springs: [Spring] = [
    Spring(response: 0.3, dampingRatio: 0.5), Spring(response: 0.25, dampingRatio: 0.6),
    .snappy(duration: 0.25), .bouncy(duration: 0.35), .smooth, .smooth(duration: 0.3),
    Spring(response: 0.5, dampingRatio: 2), Spring(response: 0.2, dampingRatio: 5),
    Spring(response: 3, dampingRatio: 0.05), Spring(response: 8, dampingRatio: 0.3),
  ]

  /// (distance to travel, initial velocity) pairs, retargets included.
  static let starts: [(target: Double, velocity: Double)] = [
    (1, 0), (0.3, 0), (-0.3, 1.697), (1, 5), (0, 2), (-1, -4), (42, 0), (0.001, 0),
  ]

  @Test(arguments: springs)
  func withinEpsilonOfTargetAfterSettling(_ spring: Spring) {
    let epsilon = Spring.defaultEpsilon
    for start in Self.starts {
      let settle = spring.settlingDuration(target: start.target, initialVelocity: start.velocity)
      for step in 0...2000 {
        let time = settle + Double(step) * 0.005
        let value = spring.value(target: start.target, initialVelocity: start.velocity, time: time)
        #expect(abs(value - start.target) <= epsilon, "\(spring) \(start) at \(time)")
        if abs(value - start.target) > epsilon { break }
      }
    }
  }

  @Test(arguments: springs)
  func velocityIsTheDerivativeOfPosition(_ spring: Spring) {
    let h = 1e-6
    for time in stride(from: 0.05, through: 1.0, by: 0.05) {
      let ahead = spring.value(target: 1, initialVelocity: 2, time: time + h)
      let behind = spring.value(target: 1, initialVelocity: 2, time: time - h)
      let numeric = (ahead - behind) / (2 * h)
      let velocity = spring.velocity(target: 1, initialVelocity: 2, time: time)
      expectClose(velocity, numeric, 1e-4 * max(1, abs(numeric)))
    }
  }

  @Test(arguments: springs)
  func startsWhereItIsAndAsFastAsItGoes(_ spring: Spring) {
    let state = spring.state(offset: -0.7, velocity: 3, time: 0)
    expectClose(state.value, -0.7, 1e-12)
    expectClose(state.velocity, 3, 1e-9)
  }

  @Test func nothingToTravelSettlesAtOnce() {
    #expect(Spring.snappy.settlingDuration(target: 0, initialVelocity: 0) == 0)
  }

  @Test func overdampedSettlesAtItsSlowRootNotAtLambda() {
    let spring = Spring(response: 0.5, dampingRatio: 2)
    let lambda = spring.decayRate
    let estimate = -log(0.001 / (lambda + 1)) / lambda
    #expect(spring.settlingDuration > estimate)
  }
}
