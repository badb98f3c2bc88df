import BadgeCore
import BadgeMotion

/// How a watcher wants its badges animated.
public struct AnimatorOptions: Sendable, Equatable {
  /// The watcher's own label limit (`--max 9` → "9+"); `nil` uses the daemon's label.
  public var maxLabel: Int?
  /// Reduced motion: every change jumps to its end state and nothing ever wakes a timer.
  public var noMotion: Bool
  /// Seconds between frames; wake times are put on this grid (see `FrameRate`).
  public var frameInterval: Double

  public init(
    maxLabel: Int? = nil, noMotion: Bool = false,
    frameInterval: Double = 1 / Double(FrameRate.standard)
  ) {
    self.maxLabel = maxLabel
    self.noMotion = noMotion
    self.frameInterval = frameInterval
  }
}

/// One channel's badge in motion: fed the snapshots the daemon sends with the time each
/// arrived, it answers what the badge looks like at any time and when it next changes.
///
/// A count change bounces the badge and rolls its digits; appearing from 0 and clearing to 0
/// scale and fade; a dot pulses during its pulse window and then stays still. The first
/// snapshot is shown as it is, without motion: connecting is not a change.
public struct BadgeAnimator: Sendable {
  public let options: AnimatorOptions
  /// The latest snapshot.
  public private(set) var snapshot: ChannelSnapshot
  /// The latest snapshot's label under these options (kept: every frame draws it).
  private var label: String

  /// The animated properties.
  enum Property: Hashable, Sendable { case scale, opacity, roll, dotScale, dotOpacity }

  private var timeline: Timeline<Property>
  /// The last label shown, which a removal keeps drawing while it fades.
  private var fadingLabel: String
  /// The label the running roll started from, and its direction.
  private var rollFrom = ""
  private var rollDirection = RollDirection.up
  /// When the pulse window ends (or ended); `nil` before any.
  private var pulseEnd: Double?
  /// When the change behind the current motion arrived.
  private var motionStart: Double

  public init(_ snapshot: ChannelSnapshot, at time: Double, options: AnimatorOptions = AnimatorOptions()) {
    self.options = options
    self.snapshot = snapshot
    motionStart = time
    let label = BadgeAnimator.label(of: snapshot, options: options)
    self.label = label
    fadingLabel = label
    timeline = Timeline([
      .scale: 1, .opacity: label.isEmpty ? 0 : 1, .roll: 1, .dotScale: 1, .dotOpacity: 1,
    ])
    followPulseWindow(at: time)
  }

  /// The label a snapshot shows under these options: none while do-not-disturb hides the
  /// channel (so the badge fades out, and back in when it ends).
  static func label(of snapshot: ChannelSnapshot, options: AnimatorOptions) -> String {
    if snapshot.silenced == .hide { return "" }
    guard let maxLabel = options.maxLabel else { return snapshot.label }
    return Label.text(
      count: snapshot.count, unseen: snapshot.unseen, badge: snapshot.badge, maxLabel: maxLabel,
      style: snapshot.dot ? .dot : .count)
  }

  /// Takes in a snapshot that arrived at `time`.
  public mutating func update(_ next: ChannelSnapshot, at time: Double) {
    let previous = snapshot
    let before = label
    let after = BadgeAnimator.label(of: next, options: options)
    snapshot = next
    label = after
    if next.count != previous.count || before != after {
      motionStart = time
      switch (before.isEmpty, after.isEmpty) {
      case (true, false): appear(label: after, at: time)
      case (false, true): disappear(at: time)
      case (false, false): change(from: before, to: after, grew: next.count > previous.count, at: time)
      case (true, true): break
      }
    }
    followPulseWindow(at: time)
  }

  // MARK: - Changes

  /// From nothing to a label: fade in, and grow from half size (a dot) or bounce (a count).
  private mutating func appear(label: String, at time: Double) {
    fadingLabel = label
    if timeline.value(.opacity, at: time) == 0 {
      timeline[.scale].set(BadgeMotions.hiddenScale, at: time)
    }
    move(.opacity, to: 1, with: BadgeMotions.fade, at: time)
    if snapshot.dot {
      move(.scale, to: 1, with: BadgeMotions.fade, at: time)
    } else {
      bounce(at: time)
    }
  }

  /// From a label to nothing: fade out and shrink, drawing the old label until it is gone.
  private mutating func disappear(at time: Double) {
    timeline[.roll].set(1, at: time)
    move(.opacity, to: 0, with: BadgeMotions.fade, at: time)
    move(.scale, to: BadgeMotions.hiddenScale, with: BadgeMotions.fade, at: time)
  }

  /// From one count to another: bounce (not a dot) and roll the digits that changed.
  private mutating func change(from before: String, to after: String, grew: Bool, at time: Double) {
    fadingLabel = after
    if !snapshot.dot { bounce(at: time) }
    guard before != after, !options.noMotion else { return }
    rollFrom = before
    rollDirection = grew ? .up : .down
    timeline[.roll].set(0, at: time)
    timeline[.roll].animate(to: 1, with: BadgeMotions.roll, at: time)
  }

  /// The badge bounce: up towards 1.3, retargeted back to 1 after 0.12 s.
  private mutating func bounce(at time: Double) {
    guard !options.noMotion else { return timeline[.scale].set(1, at: time) }
    timeline[.scale].animate(
      to: BadgeMotions.bouncePeakScale, with: BadgeMotions.bounceUp, at: time)
    timeline[.scale].animate(
      to: 1, with: BadgeMotions.bounceBack, at: time + BadgeMotions.bounceReturnDelay)
  }

  /// Animates `property`, or jumps to the end state under reduced motion.
  private mutating func move(_ property: Property, to value: Double, with animation: Animation, at time: Double) {
    if options.noMotion {
      timeline[property].set(value, at: time)
    } else {
      timeline[property].animate(to: value, with: animation, at: time)
    }
  }

  /// Keeps the pulse window and the dot's pulse in step with the latest snapshot.
  ///
  /// The window runs `pulseMs` from the snapshot's arrival and ends early when a snapshot says
  /// it is over; a new window while one runs moves the end without restarting the pulse's
  /// phase. Muted, offline and empty channels never pulse.
  private mutating func followPulseWindow(at time: Double) {
    let wanted = snapshot.isPulsing && !snapshot.muted && snapshot.online && snapshot.count > 0
    let end = time + Double(snapshot.pulseMs) / 1000
    if wanted {
      if !isPulsing(at: time) { motionStart = time }
      pulseEnd = end
    } else if isPulsing(at: time) {
      pulseEnd = time
    }
    let animates = wanted && snapshot.dot && !options.noMotion
    let peaks: [(Property, Double)] = [
      (.dotScale, BadgeMotions.pulseScale), (.dotOpacity, BadgeMotions.pulseOpacity),
    ]
    for (property, peak) in peaks {
      let running = timeline[property].isMoving(at: time)
      if animates {
        if running {
          timeline[property].cancel(after: time)
        } else {
          timeline[property].animate(to: peak, with: BadgeMotions.pulse, at: time)
        }
        timeline[property].set(1, at: end)
      } else if running {
        timeline[property].set(1, at: time)
      }
    }
  }

  private func isPulsing(at time: Double) -> Bool {
    pulseEnd.map { time < $0 } ?? false
  }

  // MARK: - Frames

  /// What the badge looks like at `time`.
  public func frame(at time: Double) -> BadgeFrame {
    let opacity = timeline.value(.opacity, at: time)
    let drawn = !label.isEmpty ? label : (opacity > 0 ? fadingLabel : "")
    var roll: Roll?
    if !label.isEmpty, timeline[.roll].isMoving(at: time) {
      let distance = 1 - timeline.value(.roll, at: time)
      roll = Roll(from: rollFrom, direction: rollDirection, offset: rollDirection == .up ? distance : -distance)
    }
    return BadgeFrame(
      channel: snapshot.channel, count: snapshot.count, label: label, drawnLabel: drawn, roll: roll,
      scale: timeline.value(.scale, at: time), opacity: opacity, dot: snapshot.dot && !snapshot.isQuiet,
      dotScale: timeline.value(.dotScale, at: time), dotOpacity: timeline.value(.dotOpacity, at: time),
      muted: snapshot.muted, online: snapshot.online, pulsing: isPulsing(at: time),
      elapsed: max(0, time - motionStart), pulseMs: pulseMillisecondsLeft(at: time),
      seq: snapshot.seq, badge: snapshot.badge, unseen: snapshot.unseen, silenced: snapshot.silenced,
      total: snapshot.total, mirror: snapshot.mirror)
  }

  /// The pulse window's milliseconds left at `time`, rounded up as the daemon rounds them.
  private func pulseMillisecondsLeft(at time: Double) -> Int {
    guard let pulseEnd, isPulsing(at: time) else { return 0 }
    return Int(((pulseEnd - time) * 1000 - FrameRate.slack).rounded(.up))
  }

  /// When the badge must next be drawn after `time`: the next frame on the grid while
  /// something moves, the start of the next scheduled change (the pulse window's end
  /// included), or `nil` when nothing will change until the next snapshot. Always `nil`
  /// under reduced motion.
  public func nextWake(after time: Double) -> Double? {
    guard !options.noMotion else { return nil }
    let interval = options.frameInterval
    var wakes: [Double] = []
    if let change = timeline.nextChange(after: time) {
      wakes.append(
        change <= time
          ? FrameRate.tick(after: time, interval: interval)
          : FrameRate.quantise(change, interval: interval))
    }
    if let pulseEnd, pulseEnd > time {
      wakes.append(FrameRate.quantise(pulseEnd, interval: interval))
    }
    return wakes.min()
  }
}
