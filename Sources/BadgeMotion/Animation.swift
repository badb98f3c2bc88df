/// How a value moves from one target to the next: a spring or a timed curve, with an optional
/// delay and repetition, named as SwiftUI names them.
///
/// An `Animation` is only a description; `AnimatedValue` applies it to a value over time.
public struct Animation: Sendable, Equatable {
  /// What shapes the motion.
  public enum Curve: Sendable, Equatable {
    /// A spring: its own physics decides how long it takes, and it keeps the velocity it
    /// starts with.
    case spring(Spring)
    /// A timing curve run over a fixed duration in seconds.
    case timing(TimingCurve, duration: Double)
  }

  /// How an animation repeats.
  public struct Repetition: Sendable, Equatable {
    /// Whether odd cycles run backwards (there and back) rather than jumping to the start.
    public var autoreverses: Bool
  }

  public var curve: Curve
  /// Seconds between the moment the animation is applied and the moment it starts moving.
  public var delay: Double = 0
  /// Set when the animation repeats forever.
  public var repetition: Repetition?

  public init(curve: Curve, delay: Double = 0, repetition: Repetition? = nil) {
    self.curve = curve
    self.delay = delay
    self.repetition = repetition
  }

  /// The duration of a timing curve when none is given, as in SwiftUI.
  public static let defaultDuration = 0.35

  // MARK: - Springs

  /// A spring animation from a `Spring` value.
  public static func spring(_ spring: Spring) -> Animation {
    Animation(curve: .spring(spring))
  }

  /// SwiftUI's `spring(response:dampingFraction:)`; the defaults are those of `spring()`.
  public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825) -> Animation {
    .spring(Spring(response: response, dampingRatio: dampingFraction))
  }

  /// SwiftUI's `spring(duration:bounce:)`.
  public static func spring(duration: Double, bounce: Double = 0) -> Animation {
    .spring(Spring(duration: duration, bounce: bounce))
  }

  /// SwiftUI's `Animation.default` since iOS 17: `spring(response: 0.55, dampingFraction: 1)`.
  public static let `default` = Animation.spring(response: 0.55, dampingFraction: 1.0)
  /// SwiftUI's `interactiveSpring()`.
  public static let interactiveSpring = Animation.spring(.interactive)
  public static let smooth = Animation.spring(.smooth)
  public static let snappy = Animation.spring(.snappy)
  public static let bouncy = Animation.spring(.bouncy)

  public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
    .spring(.smooth(duration: duration, extraBounce: extraBounce))
  }

  public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
    .spring(.snappy(duration: duration, extraBounce: extraBounce))
  }

  public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
    .spring(.bouncy(duration: duration, extraBounce: extraBounce))
  }

  // MARK: - Timing curves

  /// A timing curve over `duration` seconds.
  public static func timingCurve(_ curve: TimingCurve, duration: Double = defaultDuration) -> Animation {
    Animation(curve: .timing(curve, duration: max(duration, 0)))
  }

  /// A custom cubic Bézier with control points (x1, y1) and (x2, y2).
  public static func timingCurve(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, duration: Double = defaultDuration
  ) -> Animation {
    .timingCurve(TimingCurve(x1, y1, x2, y2), duration: duration)
  }

  public static let linear = Animation.linear()
  public static let easeIn = Animation.easeIn()
  public static let easeOut = Animation.easeOut()
  public static let easeInOut = Animation.easeInOut()

  public static func linear(duration: Double = defaultDuration) -> Animation {
    .timingCurve(.linear, duration: duration)
  }

  public static func easeIn(duration: Double = defaultDuration) -> Animation {
    .timingCurve(.easeIn, duration: duration)
  }

  public static func easeOut(duration: Double = defaultDuration) -> Animation {
    .timingCurve(.easeOut, duration: duration)
  }

  public static func easeInOut(duration: Double = defaultDuration) -> Animation {
    .timingCurve(.easeInOut, duration: duration)
  }

  // MARK: - Modifiers

  /// This animation, starting `seconds` after it is applied.
  public func delay(_ seconds: Double) -> Animation {
    var copy = self
    copy.delay = max(seconds, 0)
    return copy
  }

  /// This animation, repeated until something replaces it.
  public func repeatForever(autoreverses: Bool = true) -> Animation {
    var copy = self
    copy.repetition = Repetition(autoreverses: autoreverses)
    return copy
  }
}
