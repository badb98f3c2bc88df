import Glibc

/// The closed-form motion of a spring, for all three damping regimes.
///
/// Everything is computed as the displacement from the target (`offset = value - target`), so
/// that a spring retargeted to the value it already has (offset 0, some velocity) needs no
/// division by the distance travelled.
extension Spring {
  /// The damping regime, which picks the closed form.
  public enum Regime: Sendable, Equatable {
    case underdamped
    case critical
    case overdamped
  }

  /// Damping ratios this close to 1 use the critical form: the underdamped form divides by a
  /// damped frequency that vanishes there.
  static let criticalTolerance = 1e-9

  public var regime: Regime {
    if abs(dampingRatio - 1) <= Spring.criticalTolerance { return .critical }
    return dampingRatio < 1 ? .underdamped : .overdamped
  }

  /// The offset from the target and the velocity `time` seconds after the spring started at
  /// `offset` with `velocity`.
  public func state(offset: Double, velocity: Double, time: Double) -> MotionState {
    let w0 = angularFrequency
    switch regime {
    case .underdamped:
      let lambda = decayRate
      let wd = dampedFrequency
      let b = (velocity + lambda * offset) / wd
      let envelope = exp(-lambda * time)
      let (c, s) = (cos(wd * time), sin(wd * time))
      return MotionState(
        value: envelope * (offset * c + b * s),
        velocity: envelope * (velocity * c - (lambda * velocity + w0 * w0 * offset) / wd * s))
    case .critical:
      let envelope = exp(-w0 * time)
      let b = velocity + w0 * offset
      return MotionState(
        value: envelope * (offset + b * time), velocity: envelope * (velocity - w0 * b * time))
    case .overdamped:
      let (r1, r2) = overdampedRoots
      let c1 = (velocity - r2 * offset) / (r1 - r2)
      let c2 = offset - c1
      let (e1, e2) = (exp(r1 * time), exp(r2 * time))
      return MotionState(value: c1 * e1 + c2 * e2, velocity: c1 * r1 * e1 + c2 * r2 * e2)
    }
  }

  /// The value at `time` of a spring that starts at 0 with `initialVelocity` and pulls towards
  /// `target` (SwiftUI's `value(target:initialVelocity:time:)`).
  public func value(target: Double, initialVelocity: Double = 0, time: Double) -> Double {
    target + state(offset: -target, velocity: initialVelocity, time: time).value
  }

  /// The velocity at `time` of the same motion as `value(target:initialVelocity:time:)`.
  public func velocity(target: Double, initialVelocity: Double = 0, time: Double) -> Double {
    state(offset: -target, velocity: initialVelocity, time: time).velocity
  }

  /// The decay rates of an overdamped spring, slow (closer to 0) first.
  var overdampedRoots: (slow: Double, fast: Double) {
    let w0 = angularFrequency
    let spread = w0 * (dampingRatio * dampingRatio - 1).squareRoot()
    return (-dampingRatio * w0 + spread, -dampingRatio * w0 - spread)
  }

  // MARK: - Settling

  /// SwiftUI's `settlingDuration`: target 1, initial velocity 0, epsilon 0.001.
  public var settlingDuration: Double {
    settlingDuration(target: 1, initialVelocity: 0, epsilon: Spring.defaultEpsilon)
  }

  /// How long until the spring stays within `epsilon` of its target for good.
  ///
  /// This is the OpenSwiftUI estimate `-ln(eps / (|λ·target - v0| + |target|)) / λ`, which the
  /// reference tables use, extended to the true envelope of the motion where the estimate would
  /// end too early: an overdamped spring decays at its slow root, not at λ, and a slow
  /// underdamped one has an envelope above the estimate's.
  ///
  /// - Parameters:
  ///   - target: The distance to travel (target minus start).
  ///   - initialVelocity: The velocity at the start, in units per second.
  ///   - epsilon: The largest distance from the target that counts as settled.
  public func settlingDuration(
    target: Double, initialVelocity: Double = 0, epsilon: Double = Spring.defaultEpsilon
  ) -> Double {
    let lambda = decayRate
    let reach = abs(lambda * target - initialVelocity) + abs(target)
    guard reach > epsilon else { return 0 }
    let estimate = -log(epsilon / reach) / lambda
    let bound = envelopeDuration(offset: -target, velocity: initialVelocity, epsilon: epsilon)
    return max(0, estimate, bound)
  }

  /// When the envelope of the motion's offset falls to `epsilon` and stays under it.
  func envelopeDuration(offset: Double, velocity: Double, epsilon: Double) -> Double {
    let w0 = angularFrequency
    switch regime {
    case .underdamped:
      let wd = dampedFrequency
      let b = (velocity + decayRate * offset) / wd
      let amplitude = (offset * offset + b * b).squareRoot()
      return amplitude > epsilon ? log(amplitude / epsilon) / decayRate : 0
    case .critical:
      // (|offset| + |b|·t)·e^(-w0·t) has no closed-form inverse; it decreases after its single
      // maximum, so bisect between that maximum and a time where it is surely under epsilon.
      let b = abs(velocity + w0 * offset)
      let a = abs(offset)
      func envelope(_ t: Double) -> Double { (a + b * t) * exp(-w0 * t) }
      var low = b > 0 ? max(0, 1 / w0 - a / b) : 0
      guard envelope(low) > epsilon else { return low }
      var high = low + 1 / w0
      while envelope(high) > epsilon { high += high - low }
      for _ in 0..<200 {
        guard high - low > 1e-12 else { break }
        let mid = (low + high) / 2
        if envelope(mid) > epsilon { low = mid } else { high = mid }
      }
      return high
    case .overdamped:
      let (r1, r2) = overdampedRoots
      let c1 = (velocity - r2 * offset) / (r1 - r2)
      let amplitude = abs(c1) + abs(offset - c1)
      return amplitude > epsilon ? log(amplitude / epsilon) / -r1 : 0
    }
  }
}
