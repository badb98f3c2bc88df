import Glibc

/// A damped spring of mass 1 described the way SwiftUI describes it: a response (the period of
/// the undamped oscillation, in seconds) and a damping ratio (1 = critical).
///
/// The motion itself is in `Spring+Motion.swift`; this file holds the parameters, the
/// conversions between SwiftUI's two vocabularies and the presets.
public struct Spring: Sendable, Equatable {
  /// The period of the undamped oscillation, in seconds; SwiftUI's `response` and `duration`.
  public let response: Double
  /// The damping as a fraction of critical damping: below 1 it bounces, above 1 it creeps.
  public let dampingRatio: Double

  /// The threshold under which SwiftUI considers a spring settled (`settlingDuration`).
  public static let defaultEpsilon = 0.001

  /// A spring with SwiftUI's `spring(response:dampingFraction:)` parameters.
  ///
  /// A response below a millisecond is raised to one, so that a spring always has a finite
  /// stiffness.
  public init(response: Double, dampingRatio: Double) {
    self.response = max(response, 0.001)
    self.dampingRatio = max(dampingRatio, 0)
  }

  /// A spring with SwiftUI's `spring(duration:bounce:)` parameters.
  ///
  /// - Parameters:
  ///   - duration: The perceptual duration; it is the response.
  ///   - bounce: 0 is critically damped, up to 1 bouncier, below 0 overdamped.
  public init(duration: Double = 0.5, bounce: Double = 0) {
    self.init(response: duration, dampingRatio: Spring.dampingRatio(bounce: bounce))
  }

  /// The damping ratio of a bounce: `1 - bounce` when it bounces, `1 / (1 + bounce)` when not.
  public static func dampingRatio(bounce: Double) -> Double {
    bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
  }

  /// The bounce of this spring, the inverse of `dampingRatio(bounce:)`.
  public var bounce: Double {
    dampingRatio <= 1 ? 1 - dampingRatio : 1 / dampingRatio - 1
  }

  /// The perceptual duration; the same number as `response`.
  public var duration: Double { response }

  /// The undamped angular frequency w0, in radians per second.
  public var angularFrequency: Double { 2 * Double.pi / response }

  /// The stiffness k = w0².
  public var stiffness: Double { angularFrequency * angularFrequency }

  /// The damping coefficient c = 4πζ / response.
  public var damping: Double { 4 * Double.pi * dampingRatio / response }

  /// The decay rate λ = ζ·w0 of the oscillation's envelope.
  public var decayRate: Double { dampingRatio * angularFrequency }

  /// The damped angular frequency wd = w0·√(1 − ζ²) of an underdamped spring.
  var dampedFrequency: Double { angularFrequency * (1 - dampingRatio * dampingRatio).squareRoot() }

  /// How far past its target an underdamped spring goes from rest, as a fraction of the
  /// distance travelled; 0 when it does not overshoot.
  public var overshoot: Double {
    guard dampingRatio < 1 else { return 0 }
    return exp(-Double.pi * decayRate / dampedFrequency)
  }

  /// When an underdamped spring started at rest reaches its first peak; `nil` when it has none.
  public var firstPeakTime: Double? {
    guard dampingRatio < 1 else { return nil }
    return Double.pi / dampedFrequency
  }

  // MARK: - Presets

  /// SwiftUI's `spring()`: response 0.5, damping 0.825.
  public static let standard = Spring(response: 0.5, dampingRatio: 0.825)
  /// SwiftUI's `interactiveSpring()`: response 0.15, damping 0.86.
  public static let interactive = Spring(response: 0.15, dampingRatio: 0.86)
  /// A spring with no bounce (critically damped), duration 0.5.
  public static let smooth = Spring.smooth()
  /// A spring with a little bounce (0.15), duration 0.5.
  public static let snappy = Spring.snappy()
  /// A spring with a visible bounce (0.3), duration 0.5.
  public static let bouncy = Spring.bouncy()

  /// `.smooth` with its duration and an extra bounce over its bounce of 0.
  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0 + extraBounce)
  }

  /// `.snappy` with its duration and an extra bounce over its bounce of 0.15.
  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.15 + extraBounce)
  }

  /// `.bouncy` with its duration and an extra bounce over its bounce of 0.3.
  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Spring {
    Spring(duration: duration, bounce: 0.3 + extraBounce)
  }
}
