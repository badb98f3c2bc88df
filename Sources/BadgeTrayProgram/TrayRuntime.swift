import BadgeClient
import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeRender
import BadgeSystem
import BadgeTray
import BadgeTrayDraw
import Glibc

/// badged-tray's world: the connection to badged (`DaemonClient`, watching every channel the
/// items show), one `TrayItem` per `[tray] items` word, and what their clicks ask of badged.
///
/// A connection's snapshot (and a gap's new one) is gathered whole before the items change, so
/// a reconnect draws the counts once, not channel by channel. While badged is away every item
/// shows its last counts in grey, and its tooltip says so.
final class TrayRuntime {
  /// How many requests (clears, steps, do-not-disturb) may await replies at once; a click
  /// beyond them while badged is slow is dropped with a log line.
  static let requestLimit = 64

  private let loop: EventLoop
  private let config: TrayConfig
  private let logger: Logger
  private var daemon: DaemonClient!
  private var items: [TrayItem] = []
  private let painter: TrayIconPainter
  private let motion: ReducedMotion
  /// Whether badged's snapshot is in and the connection is up.
  private var online = false
  /// Between a connection (or a gap) and the end of its snapshot: channels are gathered, not drawn.
  private var gathering = false
  private var dnd = false
  private var busLost = false
  /// The program's own connection to the session bus: the instance's name, the portal's
  /// answers, and the first to hear the bus go away.
  private var control: BusConnection?
  private var slots: [BusSlot] = []

  init(loop: EventLoop, config: TrayConfig, socketPath: String, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.config = config
    self.logger = logger
    painter = TrayIconPainter(
      colours: TrayColours(badge: config.badgeColour, text: config.textColour, glyph: config.glyphColour))
    motion = ReducedMotion(setting: config.reduceMotion)
    daemon = DaemonClient(
      socket: socketPath, loop: loop, limit: TrayRuntime.requestLimit,
      log: { line in logger.log(line.level, line.text) },
      onEvent: { [unowned self] event in daemonEvent(event) })
    for (offset, pattern) in config.items.enumerated() {
      let item = try TrayItem(
        index: offset + 1, pattern: pattern, config: config, loop: loop, painter: painter, logger: logger,
        reduceMotion: motion.isReduced, actions: self)
      items.append(item)
    }
  }

  /// The name one badged-tray of a session owns: a second one (the unit and a desktop's
  /// autostart entry both starting it) sees it taken and exits, so no item shows twice.
  static let instanceName = "io.github.badged.Tray"

  /// Connects to the session bus and, once this is the session's only badged-tray, puts the
  /// items on it and connects to badged.
  ///
  /// - Throws: `SystemError` when there is no session bus (exit 1: the unit waits for the
  ///   graphical session, which brings one).
  func start() throws(SystemError) {
    let bus = try BusConnection.session(loop: loop, description: "badged-tray")
    control = bus
    slots.append(
      try bus.addFilter { [unowned self] message in
        guard message.isDisconnected else { return false }
        sessionBusLost()
        return true
      })
    slots.append(
      try bus.requestName(Self.instanceName, flags: []) { [unowned self] owned in
        guard owned else {
          logger.notice("badged-tray already runs in this session (\(Self.instanceName) is owned); exiting.")
          loop.exit(code: TrayProgram.ExitStatus.success)
          return
        }
        do throws(SystemError) {
          try startItems(bus: bus)
        } catch {
          logger.error("\(error)")
          loop.exit(code: TrayProgram.ExitStatus.failure)
        }
      })
  }

  private func startItems(bus: BusConnection) throws(SystemError) {
    for item in items { try item.start(at: now) }
    try motion.start(bus: bus, logger: logger) { [unowned self] reduced in
      for item in items { item.setReducedMotion(reduced, at: now) }
    }
    daemon.watch(config.items)
    try daemon.start()
  }

  /// Takes the items off the bus and closes badged's connection.
  func stop() {
    for item in items { item.stop() }
    daemon.stop()
    slots = []
    control = nil
  }

  /// The loop's clock in seconds, the animator's unit.
  var now: Double { Double(loop.now) / 1_000_000 }

  // MARK: - badged

  private func daemonEvent(_ event: DaemonClient.Event) {
    switch event {
    case .connected:
      beginSnapshot()
    case .disconnected:
      guard online || gathering else { return }
      online = false
      gathering = false
      for item in items { item.update(online: false, dnd: dnd, at: now) }
    case .received(let delivery):
      received(delivery)
    }
  }

  private func beginSnapshot() {
    gathering = true
    for item in items { item.removeAllChannels() }
  }

  private func received(_ delivery: DaemonClient.Session.Delivery) {
    switch delivery {
    case .channel(let snapshot), .event(let snapshot):
      for item in items { item.apply(snapshot) }
      if !gathering { for item in items { item.update(online: online, dnd: dnd, at: now) } }
    case .dnd(let state):
      dnd = state.isOn
      if !gathering { for item in items { item.update(online: online, dnd: dnd, at: now) } }
    case .watching:
      gathering = false
      online = true
      for item in items { item.update(online: true, dnd: dnd, at: now) }
    case .gap:
      // The session asked for a new snapshot; it replaces what the items hold.
      beginSnapshot()
    case .watchRefused(let code, let message):
      logger.error("badged refused to send the counts: \(code) \(message)")
    case .reply, .forward, .unreadableForward, .cleared, .reloaded:
      break
    }
  }
}

// MARK: - What the items' clicks ask

extension TrayRuntime: TrayItemActions {
  /// Carries out a click: `open` starts `badgectl open <channel> --upto <total>` (the way to
  /// the app and the clear after it stay badgectl's, and the loop never waits for an app to
  /// start); every other action is its requests to badged.
  func perform(_ action: TrayMenu.Action) {
    if case .open(_, let channel, let total) = action {
      var arguments = [AppLaunch.badgectl, "open", channel.description]
      if let total { arguments += ["--upto", String(total)] }
      do throws(SystemError) {
        try ChildProcess.start(arguments)
      } catch {
        logger.warning("Cannot open the app of \(channel): \(error)")
      }
      return
    }
    for request in action.requests { send(request) }
  }

  func sessionBusLost() {
    guard !busLost else { return }
    busLost = true
    logger.error("The session bus went away; exiting (the desktop session has ended or its bus was restarted).")
    daemon.stop()
    loop.exit(code: TrayProgram.ExitStatus.failure)
  }

  /// Sends a request, logging its refusal (or that badged is away) rather than failing quietly.
  private func send(_ request: Request) {
    let what = RequestEncoder.line(request)
    let sent = daemon.send(request) { [logger] reply in
      switch reply {
      case .line(.error(let code, let message)): logger.warning("badged refused '\(what)': \(code) \(message)")
      case .connectionLost: logger.warning("No answer to '\(what)': the connection to badged ended first.")
      case .line: break
      }
    }
    if !sent { logger.warning("Not sent '\(what)': badged is not connected, or too many requests await replies.") }
  }
}
