import TestSupport
import Testing

@testable import BadgeMotion

/// MOTION.md's Bézier table and the solver's guarantees.
@Suite struct TimingCurveTests {
  @Test func referenceTable() {
    let times = [0.25, 0.5, 0.75]
    let table: [(TimingCurve, [Double])] = [
      (.easeOut, [0.378138, 0.684643, 0.906535]),
      (.easeIn, [0.093465, 0.315357, 0.621862]),
      (.easeInOut, [0.129162, 0.5, 0.870838]),
      (.linear, [0.25, 0.5, 0.75]),
    ]
    for (curve, values) in table {
      for (time, expected) in zip(times, values) {
        expectClose(curve.value(at: time), expected)
      }
    }
  }

  @Test(arguments: [
    TimingCurve.easeIn, .easeOut, .easeInOut, .linear, TimingCurve(0.1, 0.9, 0.2, -0.5),
  ])
  func endpointsAreExact(_ curve: TimingCurve) {
    #expect(curve.value(at: 0) == 0)
    #expect(curve.value(at: 1) == 1)
    #expect(curve.value(at: -0.5) == 0)
    #expect(curve.value(at: 1.5) == 1)
  }

  @Test func easeOutIsMonotonic() {
    var previous = 0.0
    for step in 1...10_000 {
      let value = TimingCurve.easeOut.value(at: Double(step) / 10_000)
      #expect(value >= previous)
      previous = value
    }
  }

  /// Curves whose x barely moves at one end defeat Newton's method; bisection must take over.
  @Test(arguments: [
    TimingCurve.easeInOut, TimingCurve(1, 0, 0, 1), TimingCurve(0, 1, 1, 0),
    TimingCurve(0.99, 0, 0.01, 1), TimingCurve(0.25, 0.1, 0.25, 1),
  ])
  func solverReachesTolerance(_ curve: TimingCurve) {
    for step in 0...1000 {
      let time = Double(step) / 1000
      let u = curve.parameter(at: time)
      #expect(abs(TimingCurve.bezier(u, curve.p1.x, curve.p2.x) - time) <= TimingCurve.tolerance)
    }
  }

  @Test func controlPointTimesAreClampedSoTheCurveStaysAFunction() {
    let curve = TimingCurve(-1, 0.5, 2, 0.5)
    #expect(curve.p1.x == 0)
    #expect(curve.p2.x == 1)
  }

  @Test func slopeMatchesTheCurve() {
    let h = 1e-6
    let curve = TimingCurve.easeInOut
    for time in stride(from: 0.05, through: 0.95, by: 0.05) {
      let numeric = (curve.value(at: time + h) - curve.value(at: time - h)) / (2 * h)
      expectClose(curve.slope(at: time), numeric, 1e-5)
    }
  }

  /// Count-up 0 → 42 with easeOut(0.75): one shared progress drives the number.
  @Test func countUp() {
    let animation = Animation.easeOut(duration: 0.75)
    let expected: [(Double, Double)] = [(0.1875, 15.88), (0.375, 28.76), (0.5625, 38.07)]
    for (time, value) in expected {
      let shown = animation.state(from: 0, to: 42, velocity: 0, elapsed: time).value
      expectClose(shown, value, 0.005)
    }
  }
}
