/// One animated property: its value at any time, given the animations applied to it.
///
/// Each `animate` or `set` starts a segment at a given time, from the state the value has then
/// (position and velocity), so a retarget in mid-flight is continuous. A segment may start in
/// the future: that is how a bounce schedules its way back, and how a pulse is told when it
/// stops. Applying anything at time t replaces whatever was scheduled after t; of two things
/// applied at the same instant the later wins and starts from the earlier's state, so
/// `set(0, at: t)` then `animate(to: 1, …, at: t)` restarts a motion from 0.
public struct AnimatedValue: Sendable, Equatable {
  /// One animation run: from a state at `start` towards `to`.
  struct Segment: Sendable, Equatable {
    var start: Double
    var from: Double
    var velocity: Double
    var to: Double
    /// `nil` for a jump.
    var animation: Animation?
    /// When the motion comes to rest; `start` for a jump, `.infinity` when it repeats forever.
    var end: Double

    func state(at time: Double) -> MotionState {
      guard let animation, time < end else { return .resting(to) }
      return animation.state(from: from, to: to, velocity: velocity, elapsed: time - start)
    }
  }

  /// In order of start; never empty.
  private var segments: [Segment]

  /// A value resting at `value` since forever.
  public init(_ value: Double) {
    segments = [
      Segment(start: -.infinity, from: value, velocity: 0, to: value, animation: nil, end: -.infinity)
    ]
  }

  /// The value and velocity at `time`.
  public func state(at time: Double) -> MotionState {
    guard let segment = segment(at: time) else { return .resting(segments[0].from) }
    return segment.state(at: time)
  }

  /// The value at `time`.
  public func value(at time: Double) -> Double { state(at: time).value }

  /// The value once everything applied so far has run its course; a repeating animation counts
  /// as resting where its cycle starts.
  public var finalValue: Double {
    let last = segments[segments.count - 1]
    return last.animation?.repetition != nil ? last.from : last.to
  }

  /// Moves the value towards `target` with `animation`, starting at `time` (plus the
  /// animation's delay) from the state the value has then.
  ///
  /// Whatever was scheduled after `time` is dropped first.
  public mutating func animate(to target: Double, with animation: Animation, at time: Double) {
    cancel(after: time)
    let start = time + animation.delay
    let initial = state(at: start)
    let end = start + animation.duration(from: initial.value, to: target, velocity: initial.velocity)
    append(
      Segment(
        start: start, from: initial.value, velocity: initial.velocity, to: target,
        animation: animation, end: end))
  }

  /// Jumps to `value` at `time`, stopping any motion (a repeating one too).
  ///
  /// Whatever was scheduled after `time` is dropped first.
  public mutating func set(_ value: Double, at time: Double) {
    cancel(after: time)
    append(Segment(start: time, from: value, velocity: 0, to: value, animation: nil, end: time))
  }

  /// Drops everything scheduled to start after `time`, leaving what runs at `time` running (the
  /// first segment stays whatever its start: it gives the value its origin).
  public mutating func cancel(after time: Double) {
    segments = [segments[0]] + segments.dropFirst().filter { $0.start <= time }
  }

  /// Whether the value is changing at `time`.
  public func isMoving(at time: Double) -> Bool {
    guard let segment = segment(at: time) else { return false }
    return segment.animation != nil && time < segment.end
  }

  /// The earliest instant from `time` on at which the value changes: `time` itself while it
  /// moves, the start of the next scheduled segment while it rests, `nil` when nothing will
  /// ever move it again (so a renderer can sleep until the next update).
  public func nextChange(after time: Double) -> Double? {
    if isMoving(at: time) { return time }
    return segments.first { $0.start > time }?.start
  }

  // MARK: - Internals

  /// The segment running at `time`: the last one started by then.
  private func segment(at time: Double) -> Segment? {
    segments.last { $0.start <= time }
  }

  /// Appends `segment` and forgets the segments it makes unreachable: those finished before
  /// the one running at its start.
  private mutating func append(_ segment: Segment) {
    if let running = segments.lastIndex(where: { $0.start <= segment.start }), running > 0 {
      segments.removeFirst(running)
    }
    segments.append(segment)
  }
}
