import BadgeMotion

/// The statistics' count-up: one shared progress that runs from 0 to 1 with easeOut over
/// 0.75 s, from which every number and bar of a panel takes its value at time t, so they all
/// arrive together.
///
/// A restart (the panel opens, the period changes) runs it again from 0; `finish` jumps to the
/// end (a live refresh, where values move straight to their new figures). Without motion it
/// rests at 1. The progress is a BadgeMotion `AnimatedValue`, driven by the caller's clock.
public struct CountUp: Sendable {
  /// How long a count-up runs, in seconds.
  public static let duration = 0.75
  /// The curve that shapes it.
  public static let animation = Animation.easeOut(duration: duration)

  private var progress = AnimatedValue(1)
  /// When the current run ends; `nil` when resting.
  private var end: Double?
  public let motion: Bool

  /// A count-up that rests at the end values until `restart`.
  public init(motion: Bool = true) {
    self.motion = motion
  }

  /// Runs the count-up again from 0, starting at `time` (seconds).
  public mutating func restart(at time: Double) {
    guard motion else { return }
    progress.set(0, at: time)
    progress.animate(to: 1, with: CountUp.animation, at: time)
    end = time + CountUp.duration
  }

  /// Jumps to the end values.
  public mutating func finish(at time: Double) {
    progress.set(1, at: time)
    end = nil
  }

  /// The shared progress at `time`: 0 at the start, 1 at and after the end.
  public func progress(at time: Double) -> Double {
    min(max(progress.value(at: time), 0), 1)
  }

  /// A number's value at `time`, on its way from 0 to `target`: cut down to a whole number, so
  /// it shows `target` only once the count-up has ended.
  public func count(_ target: Int, at time: Double) -> Int {
    let p = progress(at: time)
    return p >= 1 ? target : Int((Double(target) * p).rounded(.down))
  }

  /// A fraction's value (a bar's length) at `time`.
  public func fraction(_ target: Double, at time: Double) -> Double {
    target * progress(at: time)
  }

  /// Whether anything moves at `time`; a panel draws frames only while it does.
  public func isMoving(at time: Double) -> Bool {
    progress.isMoving(at: time)
  }

  /// When the next frame is due after `time`, one `interval` later, or `nil` when the count-up
  /// rests by then (the last frame lands exactly on the end).
  public func nextFrame(after time: Double, interval: Double) -> Double? {
    guard let end, time < end else { return nil }
    return min(time + interval, end)
  }
}
