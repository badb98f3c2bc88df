/// How an `Animation` moves a value: its state at a time and how long it runs.
extension Animation {
  /// The length of one run of the base curve: a timing curve's duration, or the settling time
  /// of a spring travelling a unit distance from rest.
  public var cycleDuration: Double {
    switch curve {
    case .spring(let spring): return spring.settlingDuration
    case .timing(_, let duration): return duration
    }
  }

  /// The fraction of the way from start to end `elapsed` seconds after the motion began, for a
  /// start at rest; repetition included (even cycles forwards, odd ones backwards when it
  /// autoreverses). This is the `p` of MOTION.md's repeatForever table.
  public func progress(at elapsed: Double) -> Double {
    unitState(at: elapsed).value
  }

  /// The progress and its rate per second, for a start at rest, repetition included.
  func unitState(at elapsed: Double) -> MotionState {
    let elapsed = max(elapsed, 0)
    guard let repetition else { return baseState(at: elapsed) }
    let cycle = cycleDuration
    guard cycle > 0 else { return .resting(1) }
    let cycles = elapsed / cycle
    let index = cycles.rounded(.down)
    let forward = baseState(at: (cycles - index) * cycle)
    let isOdd = index.truncatingRemainder(dividingBy: 2) == 1
    guard repetition.autoreverses, isOdd else { return forward }
    return MotionState(value: 1 - forward.value, velocity: -forward.velocity)
  }

  /// One run of the base curve started at rest: progress 0…1 and its rate per second.
  func baseState(at elapsed: Double) -> MotionState {
    switch curve {
    case .spring(let spring):
      let moved = spring.state(offset: -1, velocity: 0, time: elapsed)
      return MotionState(value: 1 + moved.value, velocity: moved.velocity)
    case .timing(let timing, let duration):
      guard duration > 0, elapsed < duration else { return .resting(1) }
      let (value, slope) = timing.state(at: elapsed / duration)
      return MotionState(value: value, velocity: slope / duration)
    }
  }

  /// How long after it starts moving the animation comes to rest, for a value going from
  /// `from` with `velocity` to `to`; `.infinity` when it repeats forever.
  public func duration(from: Double, to: Double, velocity: Double) -> Double {
    if repetition != nil { return .infinity }
    switch curve {
    case .spring(let spring):
      return spring.settlingDuration(target: to - from, initialVelocity: velocity)
    case .timing(_, let duration):
      return duration
    }
  }

  /// The value and velocity `elapsed` seconds after the motion began from `from` (moving at
  /// `velocity`) towards `to`.
  ///
  /// Only a non-repeating spring uses the starting velocity, as in SwiftUI; a timing curve and
  /// a repeating animation start from the value alone.
  public func state(from: Double, to: Double, velocity: Double, elapsed: Double) -> MotionState {
    if repetition == nil, case .spring(let spring) = curve {
      let moved = spring.state(offset: from - to, velocity: velocity, time: max(elapsed, 0))
      return MotionState(value: to + moved.value, velocity: moved.velocity)
    }
    let unit = unitState(at: elapsed)
    let distance = to - from
    return MotionState(value: from + distance * unit.value, velocity: distance * unit.velocity)
  }
}
