import TestSupport
import Testing

@testable import BadgeMotion

/// MOTION.md's spring tables, to the precision they are printed with.
@Suite struct SpringReferenceTests {
  struct Row: Sendable, CustomTestStringConvertible {
    let name: String
    let spring: Spring
    let values: [Double]  // at t = 0.05, 0.10, 0.20, 0.30
    var testDescription: String { name }
  }

  static let times = [0.05, 0.10, 0.20, 0.30]

  static let rows: [Row] = [
    Row(
      name: "(0.30,0.50)", spring: Spring(response: 0.3, dampingRatio: 0.5),
      values: [0.365609, 0.887787, 1.142095, 0.989822]),
    Row(
      name: "(0.25,0.60)", spring: Spring(response: 0.25, dampingRatio: 0.6),
      values: [0.449964, 0.944031, 1.059550, 0.991517]),
    Row(
      name: "(0.35,0.80)", spring: Spring(response: 0.35, dampingRatio: 0.8),
      values: [0.247831, 0.608040, 0.968216, 1.015008]),
    Row(
      name: "snappy 0.25", spring: .snappy(duration: 0.25),
      values: [0.388102, 0.786369, 1.001617, 1.003073]),
    Row(
      name: "bouncy 0.35", spring: .bouncy(duration: 0.35),
      values: [0.259702, 0.651529, 1.024516, 1.032201]),
    Row(
      name: "(0.5,1.0) critical", spring: Spring(response: 0.5, dampingRatio: 1.0),
      values: [0.131311, 0.357740, 0.715416, 0.890034]),
    Row(
      name: "(0.5,2.0) overdamped", spring: Spring(response: 0.5, dampingRatio: 2.0),
      values: [0.096998, 0.231362, 0.450605, 0.607665]),
  ]

  @Test(arguments: rows)
  func closedFormMatchesTable(_ row: Row) {
    for (time, expected) in zip(Self.times, row.values) {
      expectClose(row.spring.value(target: 1, time: time), expected)
    }
  }

  @Test func initialVelocityOfFivePerSecond() {
    let spring = Spring(response: 0.3, dampingRatio: 0.5)
    let expected = [0.494223, 0.981681, 1.126238, 0.980937]
    for (time, value) in zip(Self.times, expected) {
      expectClose(spring.value(target: 1, initialVelocity: 5, time: time), value)
    }
  }

  struct Characteristics: Sendable, CustomTestStringConvertible {
    let spring: Spring
    let k, c, overshoot, firstPeak, settle: Double
    var testDescription: String { "(\(spring.response), \(spring.dampingRatio))" }
  }

  static let characteristics: [Characteristics] = [
    Characteristics(
      spring: Spring(response: 0.30, dampingRatio: 0.50), k: 438.649, c: 20.944,
      overshoot: 0.1630, firstPeak: 0.1732, settle: 0.893),
    Characteristics(
      spring: Spring(response: 0.25, dampingRatio: 0.60), k: 631.655, c: 30.159,
      overshoot: 0.0948, firstPeak: 0.1562, settle: 0.642),
    Characteristics(
      spring: Spring(response: 0.35, dampingRatio: 0.80), k: 322.273, c: 28.723,
      overshoot: 0.0152, firstPeak: 0.2917, settle: 0.671),
    Characteristics(
      spring: .snappy(duration: 0.25), k: 631.655, c: 42.726,
      overshoot: 0.0063, firstPeak: 0.2373, settle: 0.469),
    Characteristics(
      spring: .bouncy(duration: 0.35), k: 322.273, c: 25.133,
      overshoot: 0.0460, firstPeak: 0.2450, settle: 0.757),
  ]

  @Test(arguments: characteristics)
  func characteristicsMatchTable(_ row: Characteristics) throws {
    expectClose(row.spring.stiffness, row.k, 0.0005)
    expectClose(row.spring.damping, row.c, 0.0005)
    expectClose(row.spring.overshoot, row.overshoot, 0.00005)
    expectClose(try #require(row.spring.firstPeakTime), row.firstPeak, 0.00005)
    expectClose(row.spring.settlingDuration, row.settle, 0.0005)
  }

  @Test func firstPeakIsTheOvershoot() throws {
    let spring = Spring(response: 0.3, dampingRatio: 0.5)
    let peak = try #require(spring.firstPeakTime)
    expectClose(spring.value(target: 1, time: peak), 1 + spring.overshoot, 1e-12)
    expectClose(spring.velocity(target: 1, time: peak), 0, 1e-9)
  }
}

/// SwiftUI's vocabulary: bounce, duration and the presets.
@Suite struct SpringParameterTests {
  @Test func bounceMapsToDampingRatio() {
    #expect(Spring.dampingRatio(bounce: 0) == 1)
    expectClose(Spring.dampingRatio(bounce: 0.3), 0.7, 1e-15)
    expectClose(Spring.dampingRatio(bounce: -0.5), 2, 1e-15)
    expectClose(Spring(duration: 0.4, bounce: -0.5).bounce, -0.5, 1e-15)
    expectClose(Spring(duration: 0.4, bounce: 0.25).bounce, 0.25, 1e-15)
  }

  @Test func durationAndBounceIsResponseAndDamping() {
    #expect(Spring(duration: 0.35, bounce: 0.2) == Spring(response: 0.35, dampingRatio: 0.8))
    #expect(Spring(duration: 0.35, bounce: 0.2).duration == 0.35)
  }

  @Test func presets() {
    #expect(Spring.smooth == Spring(response: 0.5, dampingRatio: 1))
    expectClose(Spring.snappy.dampingRatio, 0.85, 1e-15)
    expectClose(Spring.bouncy.dampingRatio, 0.7, 1e-15)
    expectClose(Spring.bouncy(duration: 0.4, extraBounce: 0.1).dampingRatio, 0.6, 1e-15)
    expectClose(Spring.smooth(duration: 0.3, extraBounce: 0.1).dampingRatio, 0.9, 1e-15)
    #expect(Spring.bouncy(duration: 0.4).response == 0.4)
    #expect(Spring.standard == Spring(response: 0.5, dampingRatio: 0.825))
    #expect(Spring.interactive == Spring(response: 0.15, dampingRatio: 0.86))
  }

  @Test func regimes() {
    #expect(Spring(response: 0.3, dampingRatio: 0.5).regime == .underdamped)
    #expect(Spring.smooth.regime == .critical)
    #expect(Spring(response: 0.5, dampingRatio: 2).regime == .overdamped)
    #expect(Spring(response: 0.5, dampingRatio: 2).overshoot == 0)
    #expect(Spring(response: 0.5, dampingRatio: 2).firstPeakTime == nil)
  }
}
