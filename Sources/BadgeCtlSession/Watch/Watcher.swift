import BadgeBus
import BadgeClient
import BadgeCore
import BadgeCtl
import BadgeProtocol
import BadgeSystem
import Glibc

/// `badgectl watch`: follows the daemon's push stream forever and shows it, animated, in one
/// output format (`WatchDisplay`).
///
/// The snapshot `WATCH` answers with is shown as it is; every event after it animates. The
/// connection is a `DaemonClient`: when the daemon goes away every channel takes the offline
/// look and the client reconnects with backoff (0.1 s doubling to 5 s, each delay drawn from its
/// upper half), showing the fresh snapshot once it is back.
/// SIGUSR1 and, for i3blocks, a left click on standard input clear the watched channels
/// (`ClickTargets`). It exits only on SIGTERM, SIGINT or SIGHUP, or when its reader goes away.
///
/// What it shows on is a `WatchSurface`: `watch`'s display, or `top`'s dashboard, which also
/// sends its own requests over the connection (`send`) and gets their replies.
///
/// What it keeps from the connection is bounded whatever is sent: lines by the client's reader,
/// the channels shown by `ShownChannels`, the requests awaiting replies by the client's
/// session (`maxAwaiting`); a line that answers no request is dropped.
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

  private var client: DaemonClient!
  private var signalSources: [EventSource] = []
  private var outputWatch: IOSource?
  private var start: EventSource?
  private var clickInput: ClickInput?

  /// The channels shown, and which of them this connection reported.
  private var shown = ShownChannels()
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

  /// How many requests may await replies at once: room for a click that clears every channel
  /// shown. Past it nothing more is sent until replies come (a daemon answers in order, soon).
  static let maxAwaiting = 2 * ShownChannels.limit

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
    client = DaemonClient(socket: socket, loop: loop, limit: Watcher.maxAwaiting) { [unowned self] event in
      switch event {
      case .connected: break
      case .received(let delivery): received(delivery)
      case .disconnected: disconnected()
      }
    }
    client.watch(patterns)
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
      // A pipe to a bar reports an error as soon as the bar closes it: exit then, not at the
      // next write. (A terminal or file cannot be watched; then EPIPE on write ends us.)
      outputWatch = try? loop.addIO(fd: .standardOutput, events: []) { [unowned self] _ in loop.exit(code: 0) }
      // Connect from inside the loop, so that the first turn draws whatever it shows.
      start = try loop.addDefer { [unowned self] in
        do throws(SystemError) {
          try client.start()
        } catch {
          failure = .unreachable(socket: socket, cause: error.description)
          loop.exit(code: 1)
        }
      }
      _ = try loop.run()
      display.finish()
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
    if let failure { throw failure }
  }

  // MARK: - Connection

  /// What the client hands on besides replies: the snapshot, events, and the end of `WATCH`'s
  /// reply. Do-not-disturb shows through each channel's own line, and a gap is the client's
  /// to heal.
  private func received(_ delivery: DaemonClient.Session.Delivery) {
    switch delivery {
    case .channel(let snapshot), .event(let snapshot):
      show(snapshot)
    case .watching:
      snapshotEnded()
    case .watchRefused(let code, let message):
      failure = .daemon(code: code, message: message)
      loop.exit(code: 1)
    case .reply, .dnd, .gap, .forward, .unreadableForward, .cleared, .reloaded:
      break
    }
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

  /// The connection ended, or an attempt failed; the client tries again.
  private func disconnected() {
    shown.connectionEnded()
    saidNotAnswering = false
    display.connectionClosed()
    if online != false {
      online = false
      goOffline()
    }
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
    guard client.isConnected else { return }
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
    guard client.isConnected else { return false }
    guard client.hasRoom(for: requests.count) else {
      if !saidNotAnswering {
        saidNotAnswering = true
        display.warn("The daemon has not answered \(client.awaitingCount) requests; sending no more until it does.")
      }
      return false
    }
    for request in requests {
      client.send(request) { [unowned self] reply in
        if case .line(let line) = reply { display.replied(line, to: request) }
      }
    }
    return true
  }
}
