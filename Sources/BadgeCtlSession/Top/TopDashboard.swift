import BadgeCore
import BadgeCtl
import BadgeProtocol
import BadgeRender
import BadgeScreen
import BadgeSystem
import BadgeTop
import Glibc

/// `badgectl top` on the watcher's event loop: the dashboard's model, its screen, and the
/// sources that feed them.
///
/// Standard input readable → the keys waiting are read (curses with `nodelay`, so the loop never
/// blocks in curses) and handed to the model; SIGWINCH → a resize. Everything only marks the
/// screen dirty: a post source draws once per loop turn and arms the one frame timer for the
/// model's next wake, or disarms it when nothing moves. An idle dashboard is never woken.
final class TopDashboard: WatchSurface {
  private let loop: EventLoop
  private let screen: CursesScreen
  private var model: TopModel
  private var input: IOSource?
  private var resizeSignal: EventSource?
  private var timer: TimerSource?
  private var post: EventSource?
  private var dirty = true
  /// Sends requests over the watch connection; false when nothing was sent.
  var send: ([Request]) -> Bool = { _ in false }
  /// The figures of the `STATS` reply being read, taken in line by line: the panel asks for one
  /// channel, so one is all it keeps of a reply, however long.
  private var statsReply = StatsLines.Collector(maxChannels: 1)

  init(loop: EventLoop, screen: CursesScreen, options: TopOptions) throws(SystemError) {
    self.loop = loop
    self.screen = screen
    let size = screen.size
    model = TopModel(options: options, rows: size.rows, columns: size.columns)
    input = try loop.addIO(fd: .standardInput, events: .readable) { [unowned self] events in readInput(events) }
    resizeSignal = try loop.addSignal(SIGWINCH) { [unowned self] in resize() }
    timer = try loop.addTimer { [unowned self] in tick() }
    post = try loop.addPost { [unowned self] in if dirty { draw() } }
  }

  /// The loop's monotonic time in seconds: the clock of every animation.
  private var now: Double { Double(loop.now) / 1_000_000 }

  // MARK: - WatchSurface

  var channels: [ChannelSnapshot] { model.names.compactMap { model.snapshot($0) } }

  func update(_ snapshot: ChannelSnapshot) {
    perform(model.update(snapshot, at: now))
    dirty = true
  }

  func remove(channel: String) {
    perform(model.remove(channel: channel, at: now))
    dirty = true
  }

  func setOnline(_ online: Bool) {
    model.setOnline(online, at: now)
    dirty = true
  }

  func replied(_ line: ReplyLine, to request: Request) {
    let isStats = if case .stats = request { true } else { false }
    guard line.isStatus else {
      if isStats, case .data(let text) = line { statsReply.add(text) }
      return
    }
    let figures = statsReply.stats
    statsReply = StatsLines.Collector(maxChannels: 1)
    var refused = false
    if case .error(let code, let message) = line {
      refused = true
      model.show(message: "\(request.command.word) refused: \(message) (\(code))")
    }
    if isStats {
      perform(model.statsArrived(refused ? nil : figures, at: now))
    }
    dirty = true
  }

  /// In the footer, until the next key: standard error would land on the screen.
  func warn(_ message: String) {
    model.show(message: message)
    dirty = true
  }

  func connectionClosed() {
    statsReply = StatsLines.Collector(maxChannels: 1)
    model.connectionClosed()
  }

  func finish() {
    screen.end()
  }

  // MARK: - Input and time

  private func readInput(_ events: IOEvents) {
    let keys = screen.readKeys()
    if keys.isEmpty && !events.isDisjoint(with: [.hangUp, .error]) {
      loop.exit(code: 0)  // the terminal went away
      return
    }
    for key in keys {
      if key == .resize {
        resize()
        continue
      }
      perform(model.handle(key, at: now))
    }
    dirty = true
  }

  private func resize() {
    screen.resize()
    let size = screen.size
    model.resize(rows: size.rows, columns: size.columns, at: now)
    dirty = true
  }

  private func tick() {
    perform(model.advance(to: now))
    dirty = true
  }

  private func perform(_ actions: [TopAction]) {
    for action in actions {
      switch action {
      case .quit:
        loop.exit(code: 0)
      case .send(let request):
        _ = send([request])
      }
    }
  }

  private func draw() {
    dirty = false
    let time = now
    screen.show(TopView.canvas(model, at: time))
    if let wake = model.nextWake(after: time) {
      timer?.schedule(at: max(UInt64((wake * 1_000_000).rounded(.up)), loop.now + 1))
    } else {
      timer?.disarm()
    }
  }
}
