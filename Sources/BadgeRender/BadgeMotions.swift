import BadgeMotion

/// The motions a badge makes, from MOTION.md's "What the seeds ask": one place for every
/// curve, target and delay the animator uses.
public enum BadgeMotions {
  /// A count change bounces the badge up with this spring…
  public static let bounceUp = Animation.spring(response: 0.3, dampingFraction: 0.5)
  /// …towards this scale…
  public static let bouncePeakScale = 1.3
  /// …then, this long after the change, retargets back to 1 (keeping position and velocity)…
  public static let bounceReturnDelay = 0.12
  /// …with this spring.
  public static let bounceBack = Animation.spring(response: 0.25, dampingFraction: 0.6)

  /// The digits roll with the stepper's spring: quick, with a barely visible overshoot.
  public static let roll = Animation.snappy(duration: 0.25)

  /// Appearing from 0 and clearing to 0 fade and scale with a spring that does not overshoot,
  /// so opacity never passes 1 or 0.
  public static let fade = Animation.smooth(duration: 0.3)
  /// The scale a badge appears from and shrinks to.
  public static let hiddenScale = 0.5

  /// The dot pulses with easeInOut(0.8), there and back, for the pulse window.
  public static let pulse = Animation.easeInOut(duration: 0.8).repeatForever(autoreverses: true)
  /// The dot's scale at the pulse's far end.
  public static let pulseScale = 1.5
  /// The dot's opacity at the pulse's far end.
  public static let pulseOpacity = 0.4

  /// A muted badge is drawn at this opacity.
  public static let mutedOpacity = 0.5
}
