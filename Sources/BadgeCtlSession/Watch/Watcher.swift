import BadgeBus
import BadgeCore
import BadgeCtl
import BadgeProtocol
import BadgeSystem
import Glibc

/// `badgectl watch`: follows the daemon's push stream forever and shows it, animated, in one
/// output format (`WatchDisplay`).
///
/// The snapshot `WATCH` answers with is shown as it is; every event after it animates. When
/// the daemon goes away every channel takes the offline look and the watcher reconnects with
/// exponential backoff (0.1 s doubling to 5 s), showing the fresh snapshot once it is back.
/// SIGUSR1 and, for i3blocks, a left click on standard input clear the watched channels
/// (`ClickTargets`). It exits only on SIGTERM, SIGINT or SIGHUP, or when its reader goes away.
///
/// What it shows on is a `WatchSurface`: `watch`'s display, or `top`'s dashboard, which also
/// sends its own requests over the connection (`send`) and gets their replies.
///
/// What it keeps from the connection is bounded whatever is sent: lines by the reader's limit,
/// the channels shown by `ShownChannels`, the requests awaiting replies by `AwaitedRequests`;
/// a line that answers no request is dropped.
final class Watcher {
  private let socket: String
  private let patterns: [ChannelPattern]
  private let loop: EventLoop
  private let display: any WatchSurface
  /// Whether SIGUSR1 and i3blocks clicks clear the watched channels (`watch`), and whether
  /// clicks come in on standard input.
  private let clicks: (clear: Bool, fromInput: Bool)
  /// Whether a click opens the apps behind `app:` and `notify:` channels (`watch --open`).
  private let opensApps: Bool

  private var fd: FileDescriptor?
  private var source: IOSource?
  private var reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)
  private var retryTimer: TimerSource?
  private var signalSources: [EventSource] = []
  private var outputWatch: IOSource?
  private var start: EventSource?
  private var clickInput: ClickInput?

  /// Whether this connection's `WATCH` reply has ended (`OK watching`): lines before it are
  /// the snapshot, and afterwards anything but an event answers a request sent with `send`.
  private var watching = false
  /// The channels shown, and which of them this connection reported.
  private var shown = ShownChannels()
  /// The requests sent over this connection and not answered yet.
  private var awaiting = AwaitedRequests(limit: Watcher.maxAwaiting)
  /// Whether requests were refused because too many await replies (said once per connection).
  private var saidNotAnswering = false
  /// Why the watcher must end, when the daemon refused the `WATCH` itself.
  private var failure: CtlError?
  /// Stand-ins shown while nothing is known (the watched names, offline); the snapshot
  /// replaces them.
  private var standIns: Set<String> = []
  /// Whether the surface shows stand-ins at all: a bar needs something to show, the dashboard
  /// says it is waiting instead.
  private let showsStandIns: Bool
  /// Whether the last thing shown was online; offline is taken once per outage.
  private var online: Bool?
  private var backoff: UInt64 = Watcher.minBackoff

  static let minBackoff: UInt64 = 100_000
  static let maxBackoff: UInt64 = 5_000_000
  /// How many requests may await replies at once: room for a click that clears every channel
  /// shown. Past it nothing more is sent until replies come (a daemon answers in order, soon).
  static let maxAwaiting = 2 * ShownChannels.limit
  /// How many reads (of up to the reader's 256 KiB) one turn of the loop makes at most.
  static let readsPerTurn = 4

  init(
    socket: String, patterns: [ChannelPattern], loop: EventLoop, surface: any WatchSurface,
    clicks: (clear: Bool, fromInput: Bool), opensApps: Bool = false, showsStandIns: Bool = true
  ) {
    self.showsStandIns = showsStandIns
    self.socket = socket
    self.patterns = patterns
    self.loop = loop
    self.display = surface
    self.clicks = clicks
    self.opensApps = opensApps
  }

  /// `badgectl watch`: the watcher with `watch`'s display, in the given settings.
  static func watch(socket: String, patterns: [ChannelPattern], settings: WatchSettings) throws(CtlError) -> Watcher {
    Signals.block([SIGTERM, SIGINT, SIGHUP, SIGUSR1])
    do {
      let loop = try EventLoop()
      let display = try WatchDisplay(settings, loop: loop)
      return Watcher(
        socket: socket, patterns: patterns, loop: loop, surface: display, clicks: (true, settings.readsClicks),
        opensApps: settings.opensApps)
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
  }

  func run() throws(CtlError) {
    do {
      for signal in [SIGTERM, SIGINT, SIGHUP] {
        signalSources.append(try loop.addSignal(signal) { [unowned self] in loop.exit(code: 0) })
      }
      if opensApps { ChildProcess.reapAutomatically() }
      if clicks.clear {
        signalSources.append(try loop.addSignal(SIGUSR1) { [unowned self] in clearWatchedChannels() })
      }
      if clicks.fromInput {
        clickInput = ClickInput(loop: loop) { [unowned self] in clearWatchedChannels() }
      }
      retryTimer = try loop.addTimer { [unowned self] in connect() }
      // A pipe to a bar reports an error as soon as the bar closes it: exit then, not at the
      // next write. (A terminal or file cannot be watched; then EPIPE on write ends us.)
      outputWatch = try? loop.addIO(fd: .standardOutput, events: []) { [unowned self] _ in loop.exit(code: 0) }
      // Connect from inside the loop, so that the first turn draws whatever it shows.
      start = try loop.addDefer { [unowned self] in connect() }
      _ = try loop.run()
      display.finish()
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
    if let failure { throw failure }
  }

  // MARK: - Connection

  private func connect() {
    let fd: FileDescriptor
    do {
      fd = try UnixSocket.connect(path: socket)
      try fd.setNonBlocking()
      var request: [UInt8] = []
      RequestEncoder.append(.watch(patterns), to: &request)
      try fd.writeAll(request, socket: true)
    } catch {
      disconnected()
      return
    }
    self.fd = fd
    watching = false
    do {
      source = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in readable() }
    } catch {
      disconnected()
    }
  }

  /// Reads what the socket has, up to `readsPerTurn` reads: a server that sends without pause
  /// would otherwise keep the loop here, and keys, signals and drawing would wait for it to stop.
  /// The socket stays readable, so the loop comes back for the rest.
  private func readable() {
    guard let fd else { return }
    for _ in 0..<Watcher.readsPerTurn {
      // A read error ends the connection the way an end of file does.
      let result = (try? reader.read(from: fd).get()) ?? .endOfFile
      reader.forEachFrame { frame in
        if case .line(let bytes) = frame { received(ReplyLine(String(decoding: bytes, as: UTF8.self))) }
        return true
      }
      switch result {
      case .processed: continue
      case .wouldBlock: return
      case .endOfFile:
        disconnected()
        return
      }
    }
  }

  private func received(_ line: ReplyLine) {
    switch line {
    case .state(let snapshot) where !watching:
      show(snapshot)
    case .event(let snapshot):
      show(snapshot)
    case .ok where !watching:
      watching = true
      backoff = Watcher.minBackoff  // the snapshot is complete: this connection counts as good
      snapshotEnded()
    case .error(let code, let message) where !watching:
      failure = .daemon(code: code, message: message)
      loop.exit(code: 1)
    case .state, .ok, .data, .error, .forward:
      replied(line)
    case .dnd(_, let pushed):
      // Each channel's own line says how do-not-disturb shows it; a `DND` request's reply is
      // a reply like any other.
      if watching && !pushed { replied(line) }
    }
  }

  /// A line of the reply to the oldest request awaiting one; a line that answers no request
  /// (a daemon never sends one) is dropped.
  private func replied(_ line: ReplyLine) {
    guard let request = awaiting.oldest else { return }
    if line.isStatus { awaiting.answerOldest() }
    display.replied(line, to: request)
  }

  /// Shows a channel's state, unless `ShownChannels` refuses it a place.
  private func show(_ snapshot: ChannelSnapshot) {
    switch shown.admit(snapshot.channel) {
    case .shown: break
    case .replacing(let earlier): display.remove(channel: earlier)
    case .refused(let first):
      if first {
        display.warn("Showing at most \(shown.limit) channels; ignoring '\(snapshot.channel)' and any more.")
      }
      return
    }
    if standIns.remove(snapshot.channel) != nil { display.remove(channel: snapshot.channel) }
    online = true
    display.update(snapshot)
  }

  /// After a snapshot: stand-ins give way to what it listed, and a channel shown from before an
  /// outage that it no longer lists has no count and no setting any more (a glob matched it):
  /// it is shown cleared. Every channel the snapshot listed is online again (`show`), so the
  /// ones still offline are exactly those it did not list.
  private func snapshotEnded() {
    for name in standIns { display.remove(channel: name) }
    standIns = []
    online = true
    for var snapshot in display.channels where !snapshot.online {
      snapshot.online = true
      snapshot.count = 0
      snapshot.label = ""
      snapshot.pulseMs = 0
      display.update(snapshot)
    }
  }

  private func disconnected() {
    source?.cancel()
    source = nil
    fd?.close()
    fd = nil
    watching = false
    reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)
    shown.connectionEnded()
    awaiting.removeAll()
    saidNotAnswering = false
    display.connectionClosed()
    if online != false {
      online = false
      goOffline()
    }
    retryTimer?.schedule(at: loop.now + backoff)
    backoff = min(backoff * 2, Watcher.maxBackoff)
  }

  /// Every channel takes the offline look; when none is known yet, the watched names stand in
  /// for them (a glob for its channels, `*` for every channel).
  private func goOffline() {
    if display.channels.isEmpty && showsStandIns {
      let names = patterns.isEmpty ? [ChannelPattern.all.description] : patterns.map(\.description)
      for name in names {
        standIns.insert(name)
        display.update(
          ChannelSnapshot(
            channel: name, count: 0, label: "", dot: false, pulseMs: 0, muted: false, seq: 0, online: false))
      }
    }
    display.setOnline(false)
  }

  // MARK: - Clicks

  /// Sends a `CLEAR` up to the total drawn for each channel a click clears, over the watch
  /// connection, so items that arrived after the frame the user saw stay (also those read and
  /// not drawn yet); the daemon's events then show the badges clearing. Nothing happens while
  /// the daemon is away.
  private func clearWatchedChannels() {
    guard fd != nil else { return }
    var targets = ClickTargets.channels(patterns: patterns, shown: display.drawn)
    if opensApps { targets.removeAll(where: openApp) }
    guard !targets.isEmpty else { return }
    _ = send(targets.compactMap(\.clearRequest))
  }

  /// Starts `badgectl open <name> --upto <total shown>` for a channel with an app behind it
  /// (through this program, badgectl-session, which runs `open` itself), without waiting for
  /// it: it opens the app and then clears the channel itself. Returns whether it did, so other
  /// channels are cleared here.
  private func openApp(_ shown: ChannelSnapshot) -> Bool {
    guard let channel = ChannelName(shown.channel), AppChannel.desktopID(of: channel) != nil,
      let program = Environment.executablePath
    else { return false }
    let upTo = shown.total.map { ["--upto", String($0)] } ?? []
    do throws(SystemError) {
      try ChildProcess.start([program, "open", shown.channel, "--socket", socket] + upTo)
      return true
    } catch {
      return false
    }
  }

  // MARK: - Requests

  /// Sends requests over the watch connection, as `RequestEncoder` writes them; their replies
  /// go to the surface's `replied`, in order. Returns false, sending nothing, when the daemon is
  /// away or `maxAwaiting` requests would await replies.
  func send(_ requests: [Request]) -> Bool {
    guard let fd else { return false }
    guard awaiting.hasRoom(for: requests.count) else {
      if !saidNotAnswering {
        saidNotAnswering = true
        display.warn("The daemon has not answered \(awaiting.count) requests; sending no more until it does.")
      }
      return false
    }
    do {
      var lines: [UInt8] = []
      for request in requests { RequestEncoder.append(request, to: &lines) }
      try fd.writeAll(lines, socket: true)
      awaiting.sent(requests)
      return true
    } catch {
      disconnected()
      return false
    }
  }
}
