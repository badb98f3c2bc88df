import BadgeCtl
import BadgeRender
import BadgeSystem
import Glibc

/// `badgectl stats`' panel counting up in a terminal.
///
/// The count-up runs on an sd-event loop, as `watch` does: a timer draws a frame at most every
/// 1/60 s until the shared progress reaches 1, the last frame landing on the end values; then
/// the loop ends. SIGINT, SIGTERM and SIGHUP jump to the end values and end it too, so the
/// cursor comes back and the figures on screen are the real ones.
enum StatsCountUp {
  static let frameInterval = 1.0 / 60

  /// Draws the panel counting up, rewriting its lines in place, until the count-up ends.
  static func animate(_ panel: StatsPanel, socket: String) throws(CtlError) {
    Signals.block([SIGTERM, SIGINT, SIGHUP])
    do {
      let loop = try EventLoop()
      let frames = try TerminalFrames(panel: panel, loop: loop)
      let signals = try [SIGTERM, SIGINT, SIGHUP].map { (signal) throws(SystemError) in
        try loop.addSignal(signal) { frames.finish() }
      }
      _ = try loop.run()
      withExtendedLifetime((frames, signals)) {}
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
  }
}

/// The frames of one count-up in a terminal: the panel's lines drawn, then redrawn in place
/// (cursor up, each line cleared and rewritten) with the cursor hidden while it moves.
private final class TerminalFrames {
  private let panel: StatsPanel
  private let loop: EventLoop
  private var countUp = CountUp()
  private var timer: TimerSource?
  private var drawnLines = 0

  init(panel: StatsPanel, loop: EventLoop) throws(SystemError) {
    self.panel = panel
    self.loop = loop
    timer = try loop.addTimer { [unowned self] in frame(at: now) }
    Output.write("\u{1B}[?25l")  // no cursor flickering over the numbers
    // The first frame is the count-up's start: every number at 0, every bar empty.
    let start = now
    countUp.restart(at: start)
    frame(at: start)
  }

  private var now: Double { Double(loop.now) / 1_000_000 }

  private func frame(at time: Double) {
    draw(at: time)
    if let next = countUp.nextFrame(after: time, interval: StatsCountUp.frameInterval) {
      timer?.schedule(at: max(UInt64((next * 1_000_000).rounded(.up)), loop.now + 1))
    } else {
      end()
    }
  }

  /// Jumps to the end values (a signal) and ends.
  func finish() {
    countUp.finish(at: now)
    draw(at: now)
    end()
  }

  private func draw(at time: Double) {
    let lines = panel.lines(at: time, countUp: countUp)
    var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r" : ""
    for line in lines { out += line + "\u{1B}[K\n" }
    Output.write(out)
    drawnLines = lines.count
  }

  private func end() {
    timer?.disarm()
    Output.write("\u{1B}[?25h")
    loop.exit(code: 0)
  }
}
