import BadgeBus
import BadgeCore
import BadgeLog
import BadgePOSIX
import BadgeRender
import BadgeSystem
import BadgeTray
import BadgeTrayDraw
import Glibc

/// Who carries out an item's clicks: the runtime, with badged's connection.
protocol TrayItemActions: AnyObject {
  func perform(_ action: TrayMenu.Action)
}

/// One StatusNotifierItem: a group's channels (`TrayGroup`), its badge in motion
/// (`BadgeAnimator`, the motion engine every renderer uses), its icon drawn at every size
/// (`TrayIconPainter`), and its own session bus connection, which owns
/// `org.kde.StatusNotifierItem-<pid>-<n>`, serves the item and its menu, and registers with
/// the tray host's watcher whenever one appears.
///
/// Frames are drawn only while the badge moves, on the animator's 30-per-second grid, and a
/// frame that looks like the last one is neither drawn nor signalled: an idle item arms no
/// timer and sends nothing.
final class TrayItem {
  static let itemPath = "/StatusNotifierItem"
  static let menuPath = "/MenuBar"
  static let watcherName = "org.kde.StatusNotifierWatcher"
  static let watcherPath = "/StatusNotifierWatcher"
  static let itemInterface = "org.kde.StatusNotifierItem"
  static let menuInterface = "com.canonical.dbusmenu"
  /// badged-tray's own read-only properties of the frame the icon holds, for tests and tools.
  static let frameInterface = "io.github.badged.TrayItem1"

  let index: Int
  let pattern: ChannelPattern
  /// The well-known name the item owns and registers with.
  let busName: String
  let config: TrayConfig
  private let loop: EventLoop
  private let painter: TrayIconPainter
  private let logger: Logger
  private(set) weak var actions: TrayItemActions?
  /// Told the bytes of each frame's pixmaps as the next replaces them (the heap's trimmer).
  private let released: (Int) -> Void
  let glyph: TrayGlyph

  private(set) var group: TrayGroup
  private(set) var online = false
  private(set) var dnd = false
  private var reduceMotion: Bool
  private var animator: BadgeAnimator?
  /// The frame the icon holds, and its look (what decides whether a new frame is drawn).
  private(set) var frame: BadgeFrame?
  private var look: Look?
  private(set) var pixmaps: [IconPixmap] = []
  var menu = TrayMenu()
  /// What the menu lists now; a change is told with `LayoutUpdated`.
  private var menuKey: [String] = []
  /// The text properties last told to the host, to signal only their changes.
  private var shown = Shown()
  private var frameTimer: TimerSource?
  private(set) var bus: BusConnection?
  private var slots: [BusSlot] = []
  /// The registration call in flight, if any.
  private var registration: BusSlot?
  /// Tells the host the icon and texts once more, a moment after a registration or a burst of
  /// frames.
  private var reannounceTimer: TimerSource?
  /// How long after a registration, and after the last frame of a burst (a frame less than this
  /// after the one before), the item tells its icon and texts again. Hosts can miss a frame:
  /// Waybar 0.9 draws an item that registered in its first moments only at its next NewIcon
  /// (seen 3 restarts in 4), and GNOME's AppIndicator extension ignores a NewIcon that comes
  /// while it still converts the last pixmap of that size ("Is still loading, ignoring the
  /// request"), which left it showing a frame of the bounce, or its loading placeholder.
  static let reannounceDelay: UInt64 = 1_000_000
  /// When the last NewIcon went out.
  private var lastIconAt: UInt64?
  private var saidNoWatcher = false

  init(
    index: Int, pattern: ChannelPattern, config: TrayConfig, loop: EventLoop, painter: TrayIconPainter,
    logger: Logger, reduceMotion: Bool, actions: TrayItemActions, released: @escaping (Int) -> Void
  ) throws(SystemError) {
    self.released = released
    self.index = index
    self.pattern = pattern
    self.config = config
    self.loop = loop
    self.painter = painter
    self.logger = logger
    self.reduceMotion = reduceMotion
    self.actions = actions
    busName = "org.kde.StatusNotifierItem-\(getpid())-\(index)"
    group = TrayGroup(pattern: pattern, maxLabel: config.maxLabel)
    glyph = TrayItem.glyph(for: pattern)
  }

  /// The app's own icon for an item of one app's channel, where a PNG of it is found; else the bell.
  private static func glyph(for pattern: ChannelPattern) -> TrayGlyph {
    guard let name = pattern.exactName, let id = AppChannel.desktopID(of: name) else { return .bell }
    let dataDirs = AppActivation.dataDirectories(
      dataHome: Environment.value("XDG_DATA_HOME"), dataDirs: Environment.value("XDG_DATA_DIRS"),
      home: Environment.home)
    return AppIconLookup.pngPath(desktopID: id, size: 128, dataDirs: dataDirs).map { .image(path: $0) } ?? .bell
  }

  /// Arms the frame timer and, unless the item hides while empty, goes on the bus.
  func start(at time: Double) throws(SystemError) {
    frameTimer = try loop.addTimer { [unowned self] in draw(at: Double(loop.now) / 1_000_000) }
    reannounceTimer = try loop.addTimer { [unowned self] in reannounce() }
    let empty = group.aggregate(online: false)
    animator = BadgeAnimator(empty, at: time, options: options)
    draw(at: time)
    if group.isShown(config.empty) { try connect() }
  }

  /// Leaves the bus (the host removes the item) and stops drawing.
  func stop() {
    frameTimer?.disarm()
    reannounceTimer?.disarm()
    disconnect()
  }

  private var options: AnimatorOptions { AnimatorOptions(maxLabel: nil, noMotion: reduceMotion) }

  // MARK: - Counts

  func apply(_ snapshot: ChannelSnapshot) { _ = group.apply(snapshot) }

  func removeAllChannels() { group.removeAll() }

  /// Follows the group after a change: the badge moves, the texts and the menu are told anew,
  /// and an item that hides while empty comes and goes.
  func update(online: Bool, dnd: Bool, at time: Double) {
    self.online = online
    self.dnd = dnd
    let aggregate = group.aggregate(online: online)
    if animator?.snapshot != aggregate { animator?.update(aggregate, at: time) }
    let shown = group.isShown(config.empty)
    if shown && bus == nil {
      do throws(SystemError) { try connect() } catch { logger.error("Tray item \(pattern): \(error)") }
    } else if !shown && bus != nil {
      disconnect()
    }
    draw(at: time)
    publishTexts()
    publishMenu()
  }

  /// Starts the badge's motion again under the new setting, from where it rests.
  func setReducedMotion(_ reduced: Bool, at time: Double) {
    guard reduced != reduceMotion, let snapshot = animator?.snapshot else { return }
    reduceMotion = reduced
    animator = BadgeAnimator(snapshot, at: time, options: options)
    draw(at: time)
  }

  // MARK: - Frames

  /// What decides whether a frame differs from the last one drawn: everything drawn, nothing
  /// else (a count of 120 after 130 is still "99+").
  private struct Look: Equatable {
    var label: String
    var roll: Roll?
    var scale, opacity, dotScale, dotOpacity: Double
    var dot, muted, online, pulsing, hidden: Bool

    init(_ frame: BadgeFrame) {
      label = frame.drawnLabel
      roll = frame.roll
      scale = frame.scale
      opacity = frame.opacity
      dotScale = frame.dotScale
      dotOpacity = frame.dotOpacity
      dot = frame.dot
      muted = frame.muted
      online = frame.online
      pulsing = frame.pulsing && frame.dot
      hidden = frame.isHidden
    }
  }

  /// Draws the frame at `time` when it looks different (every size, one `NewIcon`), then arms
  /// the timer for the next one while something moves.
  private func draw(at time: Double) {
    guard let animator else { return }
    let next = animator.frame(at: time)
    let nextLook = Look(next)
    if nextLook != look {
      frame = next
      look = nextLook
      let began = Environment.monotonicMicroseconds
      let before = pixmaps.reduce(0) { $0 + $1.argb.count }
      pixmaps = painter.drawAll(next, glyph: glyph)
      released(before)
      let bytes = pixmaps.reduce(0) { $0 + $1.argb.count }
      logger.debug(
        "Tray item \(pattern): frame drawn in \(Environment.monotonicMicroseconds &- began) µs "
          + "(\(pixmaps.count) sizes, \(bytes) bytes).")
      emit(Self.itemInterface, "NewIcon", [])
      if let last = lastIconAt, loop.now &- last < Self.reannounceDelay {
        reannounceTimer?.schedule(at: loop.now + Self.reannounceDelay)
      }
      lastIconAt = loop.now
    }
    if let wake = animator.nextWake(after: time) {
      frameTimer?.schedule(at: UInt64(max(0, wake) * 1_000_000))
    } else {
      frameTimer?.disarm()
    }
  }

  // MARK: - Texts

  /// The item's texts as last told.
  private struct Shown: Equatable {
    var status = ""
    var title = ""
    var toolTip = ""
    var label = ""
  }

  var status: String { group.status }
  var label: String { animator?.snapshot.label ?? "" }
  var toolTip: (title: String, body: String) { group.toolTip(online: online) }

  private func publishTexts() {
    let tip = toolTip
    let now = Shown(status: status, title: group.title, toolTip: tip.title + "\n" + tip.body, label: label)
    defer { shown = now }
    guard bus != nil else { return }
    if now.status != shown.status { emit(Self.itemInterface, "NewStatus", [.string(now.status)]) }
    if now.title != shown.title { emit(Self.itemInterface, "NewTitle", []) }
    if now.toolTip != shown.toolTip { emit(Self.itemInterface, "NewToolTip", []) }
    if now.label != shown.label {
      emit(Self.itemInterface, "XAyatanaNewLabel", [.string(now.label), .string(labelGuide)])
    }
  }

  /// The widest label the item shows, so GNOME keeps room for it.
  var labelGuide: String {
    Label.text(count: config.maxLabel + 1, unseen: 0, badge: .count, maxLabel: config.maxLabel, style: .count)
  }

  private func publishMenu() {
    let key = group.channels.map { "\($0.channel) \($0.label) \($0.muted)" } + [dnd ? "dnd" : ""]
    guard key != menuKey else { return }
    menuKey = key
    emit(Self.menuInterface, "LayoutUpdated", [.uint32(menu.revision &+ 1), .int32(0)], path: Self.menuPath)
  }

  // MARK: - The bus

  /// Connects, serves the item and its menu, owns the item's name and registers with the
  /// watcher, now and whenever a watcher appears.
  private func connect() throws(SystemError) {
    let bus = try BusConnection.session(loop: loop, description: "badged-tray-\(index)")
    var slots: [BusSlot] = []
    slots.append(try bus.export(itemObject(), at: Self.itemPath))
    slots.append(try bus.export(menuObject(), at: Self.menuPath))
    let rule =
      "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
      + "arg0='\(Self.watcherName)'"
    slots.append(
      try bus.addMatch(rule) { [weak self] message in
        guard case .string(let owner)? = message.arguments().dropFirst(2).first, !owner.isEmpty else { return }
        self?.register()
      })
    slots.append(
      try bus.requestName(busName, flags: []) { [weak self] owned in
        guard let self else { return }
        if owned {
          register()
        } else {
          logger.error("Tray item \(pattern): cannot own the bus name \(busName).")
        }
      })
    self.bus = bus
    self.slots = slots
  }

  private func disconnect() {
    registration = nil
    reannounceTimer?.disarm()
    slots = []
    bus = nil
  }

  /// `RegisterStatusNotifierItem(<our name>)`; without a watcher the item waits for one.
  private func register() {
    guard let bus else { return }
    do throws(SystemError) {
      registration = try bus.callMethod(
        destination: Self.watcherName, path: Self.watcherPath, interface: Self.watcherName,
        member: "RegisterStatusNotifierItem",
        { [busName] (builder: inout BusMessageBuilder) throws(SystemError) in try builder.append(string: busName) },
        reply: { [weak self] message in
          guard let self else { return }
          if message.kind == .error {
            if !saidNoWatcher {
              logger.info(
                "Tray item \(pattern): no tray host yet (\(message.errorName ?? "no watcher")); it shows once one starts."
              )
            }
            saidNoWatcher = true
          } else {
            saidNoWatcher = false
            logger.info("Tray item \(pattern): registered with the tray host as \(busName).")
            reannounceTimer?.schedule(at: loop.now + Self.reannounceDelay)
          }
        })
    } catch {
      logger.error("Tray item \(pattern): cannot register: \(error)")
    }
  }

  /// NewIcon, NewStatus, NewTitle and NewToolTip once more (`reannounceDelay`): the pixmaps are
  /// the last frame's, not drawn again.
  private func reannounce() {
    lastIconAt = nil
    emit(Self.itemInterface, "NewIcon", [])
    emit(Self.itemInterface, "NewStatus", [.string(status)])
    emit(Self.itemInterface, "NewTitle", [])
    emit(Self.itemInterface, "NewToolTip", [])
  }

  func emit(_ interface: String, _ member: String, _ arguments: [BusArgument], path: String = TrayItem.itemPath) {
    guard let bus else { return }
    do throws(SystemError) {
      try bus.emitSignal(path: path, interface: interface, member: member, arguments: arguments)
    } catch {
      logger.warning("Tray item \(pattern): cannot send \(member): \(error)")
    }
  }
}
