/// Where an animated value is and how fast it moves: the pair a retarget carries over, so that
/// a new animation starts from the old one's position and velocity without a jump or a kink.
public struct MotionState: Sendable, Equatable {
  /// The value, in the property's own units (a scale, an opacity, a progress).
  public var value: Double
  /// The rate of change, in the property's units per second.
  public var velocity: Double

  public init(value: Double, velocity: Double = 0) {
    self.value = value
    self.velocity = velocity
  }

  /// A value at rest.
  public static func resting(_ value: Double) -> MotionState {
    MotionState(value: value, velocity: 0)
  }
}
