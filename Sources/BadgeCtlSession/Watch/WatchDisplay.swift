import BadgeCore
import BadgeCtl
import BadgeProtocol
import BadgeRender
import BadgeSystem

/// What `badgectl watch` shows: the animators of every watched channel, the renderer, and the
/// one frame timer, on the watcher's event loop.
///
/// Changes only mark the display dirty; a post handler draws once per loop turn, so a
/// snapshot of many channels (or a burst of events read at once) is one update. Each draw
/// renders the frames at the loop's time and arms the timer for the animators' next wake, or
/// for when a stale mirror's words next change ("offline 11 min" turning "offline 12 min"),
/// or disarms it when there is neither: an idle watcher with nothing stale is never woken.
final class WatchDisplay: WatchSurface {
  private let loop: EventLoop
  private var group: AnimatorGroup
  private var renderer: Renderer
  private var timer: TimerSource?
  private var post: EventSource?

  /// Whether something changed since the last draw.
  private var dirty = false
  /// The last output written: an identical update is not written again.
  private var written = ""
  /// When output was last written, for formats that take at most one update per interval.
  private var lastWrite: Double?
  /// The least time between two writes: tmux redraws its status at most once a second, so a
  /// tmux watcher writes at most one line a second (the last state wins). 0 for the others.
  private let minimumGap: Double

  init(_ settings: WatchSettings, loop: EventLoop) throws(SystemError) {
    self.loop = loop
    group = AnimatorGroup(options: settings.animator)
    renderer = Renderer(format: settings.format, options: settings.render)
    minimumGap = settings.format.showsMotion ? 0 : settings.animator.frameInterval
    timer = try loop.addTimer { [unowned self] in dirty = true }
    post = try loop.addPost { [unowned self] in if dirty { draw() } }
  }

  /// The loop's monotonic time in seconds: the clock every animator runs on.
  var now: Double { Double(loop.now) / 1_000_000 }

  /// The latest snapshot of every channel shown, in the order they arrived.
  var channels: [ChannelSnapshot] { group.animators.map(\.snapshot) }

  /// Every channel as the last draw showed it (its running total is what a click clears up to).
  private(set) var drawn: [ChannelSnapshot] = []

  /// Takes in a snapshot that arrived now.
  func update(_ snapshot: ChannelSnapshot) {
    group.update(snapshot, at: now)
    dirty = true
  }

  /// Marks every channel online or offline.
  func setOnline(_ online: Bool) {
    group.setOnline(online, at: now)
    dirty = true
  }

  /// Stops showing `channel`.
  func remove(channel: String) {
    group.remove(channel: channel)
    dirty = true
  }

  /// A reply to a click's `CLEAR`: the change itself arrives as an event, so only a refusal
  /// is worth a word.
  func replied(_ line: ReplyLine, to request: Request) {
    if case .error(let code, let message) = line {
      Output.error("Failed to clear a channel: \(message) (\(code)), ignoring.\n")
    }
  }

  /// On standard error, which a bar keeps in its log: standard output is the bar's.
  func warn(_ message: String) {
    Output.error(message + "\n")
  }

  func connectionClosed() {}

  /// Ends a terminal line that was being rewritten in place, so that the shell's prompt starts
  /// on a line of its own.
  func finish() {
    if renderer.format == .term, renderer.options.rewrite, !written.isEmpty { Output.write("\n") }
  }

  private func draw() {
    let time = now
    if let lastWrite, time < lastWrite + minimumGap {
      arm(at: lastWrite + minimumGap)  // still dirty: drawn when the gap has passed
      return
    }
    dirty = false
    let wall = Environment.wallClockMicroseconds
    let wallSeconds = Int(wall / 1_000_000)
    let frames = group.frames(at: time, wallSeconds: wallSeconds)
    drawn = frames.map(\.state)
    let output = renderer.render(frames)
    if output != written {
      Output.write(output)
      written = output
      lastWrite = time
    }
    var wake = group.nextWake(after: time)
    if let change = group.nextWordsChange(afterWall: wallSeconds) {
      // The wall clock's second on the loop's clock: as far ahead of now as it is of the wall.
      let at = time + Double(change) - Double(wall) / 1_000_000
      wake = min(wake ?? at, at)
    }
    if let wake {
      arm(at: wake)
    } else {
      timer?.disarm()
    }
  }

  /// Arms the frame timer for `time` (seconds), rounded up to the next microsecond so that the
  /// loop's time at the wake is never before it.
  private func arm(at time: Double) {
    let deadline = UInt64((time * 1_000_000).rounded(.up))
    timer?.schedule(at: max(deadline, loop.now + 1))
  }
}
