import BadgeCore
import BadgeMotion
import BadgeProtocol
import BadgeRender

/// How the dashboard was asked to behave.
public struct TopOptions: Sendable, Equatable {
  /// Reduced motion: every change shows its end state at once.
  public var noMotion: Bool
  /// How the terminal shows colour (decided once the screen knows the terminal).
  public var colour: ColourMode
  public var palette: Palette
  /// Seconds between frames while something moves.
  public var frameInterval: Double

  public init(
    noMotion: Bool = false, colour: ColourMode = .palette256, palette: Palette = .standard,
    frameInterval: Double = 1.0 / 60
  ) {
    self.noMotion = noMotion
    self.colour = colour
    self.palette = palette
    self.frameInterval = frameInterval
  }
}

/// What the dashboard asks of the program around it after an input.
public enum TopAction: Equatable, Sendable {
  /// Send this request to the daemon (written where it is sent, by `RequestEncoder`).
  case send(Request)
  case quit
}

/// The dashboard: the channels it knows, what is selected and open, and what every input does.
///
/// Pure: the daemon's snapshots and the user's keys come in with the loop's time, requests and
/// the canvas to show go out. Nothing changes a count here; a key asks the daemon, and the
/// daemon's event (seen by every client alike) brings the change back with its motion.
public struct TopModel: Sendable {
  public var options: TopOptions
  /// The channels, by name, sorted (the order `WATCH` lists them in).
  public private(set) var names: [String] = []
  /// Each channel's badge, as `watch` animates it.
  private(set) var badges: [String: BadgeAnimator] = [:]
  /// Each channel's count as a number (never "99+", "0" at zero), rolling as the badge's does.
  private(set) var counts: [String: BadgeAnimator] = [:]
  public private(set) var selection: LinkedSelection
  /// The bar's segments, one per name in `names`' order, each as wide as its content
  /// (`segmentContentWidth`): changed one segment at a time, so that a change of one channel
  /// measures only that channel's badge.
  private(set) var layout = SegmentLayout(contentWidths: [])
  public private(set) var screen: TopLayout
  /// The open number wheel, if any.
  public private(set) var wheel: NumberWheel?
  /// How many rows the wheel still has to scroll to rest on its value (0 at rest).
  private var wheelScroll = AnimatedValue(0)
  public private(set) var showsHelp = false
  /// The open statistics panel, if any.
  public private(set) var stats: StatsPane?
  /// Whether the daemon is connected.
  public private(set) var online = false
  /// The last thing that went wrong, shown in the footer until the next key.
  public private(set) var message: String?
  var hold = HoldRepeat()
  /// The stepper button held down with the mouse: `true` for plus.
  private var heldButton: Bool?

  public init(options: TopOptions = TopOptions(), rows: Int, columns: Int) {
    self.options = options
    screen = TopLayout(rows: rows, columns: columns)
    selection = LinkedSelection(selected: 0, layout: layout, width: columns, noMotion: options.noMotion)
  }

  /// The selected channel's name, if any channel is known.
  public var selectedName: String? { names.indices.contains(selection.selected) ? names[selection.selected] : nil }

  /// The latest snapshot of `channel`.
  public func snapshot(_ channel: String) -> ChannelSnapshot? { badges[channel]?.snapshot }

  var animatorOptions: AnimatorOptions {
    AnimatorOptions(noMotion: options.noMotion, frameInterval: options.frameInterval)
  }

  // MARK: - The daemon's side

  /// Takes in a snapshot that arrived at `time`; a new channel takes its place by name. Returns
  /// the requests it makes: fresh statistics when the panel shows the channel and it changed, or
  /// when the daemon is back.
  @discardableResult
  public mutating func update(_ snapshot: ChannelSnapshot, at time: Double) -> [TopAction] {
    let reconnected = !online && snapshot.online
    let changed = badges[snapshot.channel].map { $0.snapshot.seq != snapshot.seq } ?? true
    online = online || snapshot.online
    var number = snapshot
    // The page's large count is the number itself, whatever the badge shows: the dashboard was
    // opened to read counts, so do-not-disturb and `badge = unseen` change only the badges.
    number.label = String(snapshot.count)
    number.dot = false
    number.silenced = nil
    number.badge = .count
    if badges[snapshot.channel] == nil {
      let selected = selectedName
      badges[snapshot.channel] = BadgeAnimator(snapshot, at: time, options: animatorOptions)
      counts[snapshot.channel] = BadgeAnimator(number, at: time, options: animatorOptions)
      let index = names.sortedPlace(of: snapshot.channel)
      names.insert(snapshot.channel, at: index)
      layout.insert(contentWidth: segmentContentWidth(snapshot.channel), at: index)
      relayout(keeping: selected, animated: false, at: time)
    } else {
      badges[snapshot.channel]?.update(snapshot, at: time)
      counts[snapshot.channel]?.update(number, at: time)
      let index = names.sortedPlace(of: snapshot.channel)
      let width = segmentContentWidth(snapshot.channel)
      // A badge as wide as before leaves every segment, and so the capsule, where it is.
      if width != layout.contentWidth(at: index) {
        layout.setContentWidth(width, at: index)
        relayout(keeping: selectedName, animated: true, at: time)
      }
    }
    if reconnected, let request = stats?.reconnected() { return [.send(request)] }
    if changed, let request = stats?.changed(snapshot.channel) { return [.send(request)] }
    return []
  }

  /// Stops showing `channel`; when it was selected, its neighbour is, and the statistics follow.
  @discardableResult
  public mutating func remove(channel: String, at time: Double) -> [TopAction] {
    guard let index = names.sortedIndex(of: channel) else { return [] }
    var selected = selectedName
    if selected == channel {
      selected = names.indices.contains(index + 1) ? names[index + 1] : index > 0 ? names[index - 1] : nil
    }
    names.remove(at: index)
    layout.remove(at: index)
    badges[channel] = nil
    counts[channel] = nil
    relayout(keeping: selected, animated: false, at: time)
    guard let name = selectedName else {
      stats = nil
      return []
    }
    return stats?.show(name).map { [.send($0)] } ?? []
  }

  /// The connection ended: replies still owed will not come.
  public mutating func connectionClosed() {
    stats?.connectionClosed()
  }

  /// The reply to a `STATS` request arrived at `time`: the figures, or `nil` when refused.
  public mutating func statsArrived(_ reply: [ChannelStats]?, at time: Double) -> [TopAction] {
    guard let request = stats?.arrived(reply, at: time) else { return [] }
    return [.send(request)]
  }

  /// Marks every channel online or offline (the daemon went away or came back).
  public mutating func setOnline(_ online: Bool, at time: Double) {
    self.online = online
    for name in names {
      for animators in [\TopModel.badges, \TopModel.counts] {
        guard var animator = self[keyPath: animators][name], animator.snapshot.online != online else { continue }
        var snapshot = animator.snapshot
        snapshot.online = online
        animator.update(snapshot, at: time)
        self[keyPath: animators][name] = animator
      }
    }
    layout = SegmentLayout(contentWidths: names.map { segmentContentWidth($0) })  // the offline look changes the badges
    relayout(keeping: selectedName, animated: true, at: time)
  }

  /// The terminal is now `rows` × `columns`.
  public mutating func resize(rows: Int, columns: Int, at time: Double) {
    screen = TopLayout(rows: rows, columns: columns)
    relayout(keeping: selectedName, animated: false, at: time)
  }

  /// The capsule and page follow the bar's segments: a badge that grows or shrinks, or a
  /// channel that arrives or goes, moves the capsule.
  private mutating func relayout(keeping selected: String?, animated: Bool, at time: Double) {
    let index = selected.flatMap { names.sortedIndex(of: $0) } ?? 0
    selection.relayout(layout, width: screen.columns, selected: index, animated: animated, at: time)
  }

  /// A segment's content: the name, and the badge at rest with a blank before it.
  func segmentContentWidth(_ name: String) -> Int {
    guard let animator = badges[name] else { return name.count }
    let badge = TermBadge.styled(
      animator.frame(at: .greatestFiniteMagnitude), palette: options.palette, colour: options.colour)
    let width = badge.plainText.count
    return name.count + (width > 0 ? 1 + width : 0)
  }

  /// The frame of `channel`'s badge at `time`.
  func badgeFrame(_ channel: String, at time: Double) -> BadgeFrame? { badges[channel]?.frame(at: time) }

  /// The frame of `channel`'s count at `time`.
  func countFrame(_ channel: String, at time: Double) -> BadgeFrame? { counts[channel]?.frame(at: time) }

  // MARK: - Time

  /// When the screen must next be drawn (or a held button repeat) after `time`; `nil` when
  /// nothing moves and nothing is held, so the loop sleeps until an input.
  public func nextWake(after time: Double) -> Double? {
    var wakes = badges.values.compactMap { $0.nextWake(after: time) }
    if let name = selectedName, let wake = counts[name]?.nextWake(after: time) { wakes.append(wake) }
    if let change = selection.nextChange(after: time) {
      wakes.append(change <= time ? FrameRate.tick(after: time, interval: options.frameInterval) : change)
    }
    if heldButton != nil, let next = hold.nextRepeat(after: time) { wakes.append(next) }
    if wheel != nil, let change = wheelScroll.nextChange(after: time) {
      wakes.append(change <= time ? FrameRate.tick(after: time, interval: options.frameInterval) : change)
    }
    if let wake = stats?.nextWake(after: time, interval: options.frameInterval) { wakes.append(wake) }
    return wakes.min()
  }

  /// Repeats a held stepper button when its time has come.
  public mutating func advance(to time: Double) -> [TopAction] {
    guard let up = heldButton, let next = hold.nextRepeat(after: time - 1e-9), next <= time + 1e-9 else { return [] }
    return step(up: up, key: up ? "mouse+" : "mouse-", at: time)
  }

  // MARK: - Input

  /// What `key`, pressed at `time`, does.
  public mutating func handle(_ key: Key, at time: Double) -> [TopAction] {
    message = nil
    if key == .interrupt || key == .character("q") { return [.quit] }
    if case .mouse(let mouse) = key { return handle(mouse, at: time) }
    if key != .character("+") && key != .character("-") && key != .character("=") { hold.release() }
    if showsHelp {
      showsHelp = false
      return []
    }
    if wheel != nil { return handleWheel(key, at: time) }
    switch key {
    case .left: return move(by: -1, wrapping: false, at: time)
    case .right: return move(by: 1, wrapping: false, at: time)
    case .backTab: return move(by: -1, wrapping: true, at: time)
    case .tab: return move(by: 1, wrapping: true, at: time)
    case .home: return select(0, at: time)
    case .end: return select(names.count - 1, at: time)
    case .character("+"), .character("="): return step(up: true, key: "+", at: time)
    case .character("-"): return step(up: false, key: "-", at: time)
    case .character("p"): openWheel(at: time)
    case .character("c"):
      // Up to the total shown: what arrived since the last frame stays.
      guard let name = selectedName, let request = badges[name]?.snapshot.clearRequest else { return [] }
      return [.send(request)]
    case .character("m"):
      guard let name = selectedName, let snapshot = badges[name]?.snapshot, let channel = ChannelName(name) else {
        return []
      }
      return [.send(.write(channel, snapshot.muted ? .unmute : .mute))]
    case .character("?"): showsHelp = true
    case .character("s"): return toggleStats()
    case .character("["): return stats?.step(by: -1, at: time).map { [.send($0)] } ?? []
    case .character("]"): return stats?.step(by: 1, at: time).map { [.send($0)] } ?? []
    case .character(let digit) where digit.isASCII && digit.isWholeNumber:
      // 1…9 pick the first nine channels, 0 the tenth.
      let number = digit.wholeNumberValue!
      return select(number == 0 ? 9 : number - 1, at: time)
    default: break
    }
    return []
  }

  /// Shows an error (a refused request) in the footer until the next key.
  public mutating func show(message: String) {
    self.message = message
  }

  private mutating func handle(_ mouse: MouseEvent, at time: Double) -> [TopAction] {
    if mouse.action == .release {
      heldButton = nil
      hold.release()
      return []
    }
    if showsHelp {
      showsHelp = false
      return []
    }
    if wheel != nil {
      switch mouse.action {
      case .wheelUp: scrollWheel(by: -1, at: time)
      case .wheelDown: scrollWheel(by: 1, at: time)
      default:
        let row = mouse.row - screen.wheelTop
        if mouse.column >= screen.wheelColumn, mouse.column < screen.wheelColumn + TopLayout.wheelWidth,
          row >= 0, row < screen.wheelRows
        {
          scrollWheel(by: row - (screen.wheelRows - 1) / 2, at: time)
        }
      }
      return []
    }
    guard mouse.action == .press else { return [] }
    if mouse.row == TopLayout.barRow {
      let x = mouse.column + Int(selection.scroll(at: time).rounded())
      return layout.segment(at: x).map { select($0, at: time) } ?? []
    }
    let origin = screen.statsOrigin
    if stats != nil, mouse.row == origin.row,
      let index = StatsPane.controlLayout.segment(at: mouse.column - origin.column)
    {
      return stats?.select(StatsPane.periods[index], at: time).map { [.send($0)] } ?? []
    }
    if mouse.row == TopLayout.stepperRow {
      for (column, up) in [(TopLayout.minusColumn, false), (TopLayout.plusColumn, true)]
      where mouse.column >= column && mouse.column < column + TopLayout.buttonWidth {
        heldButton = up
        return step(up: up, key: up ? "mouse+" : "mouse-", at: time)
      }
    }
    // The arrows at the page's sides turn the page, and the capsule follows.
    let middle = TopLayout.countRow + 2
    if mouse.row == middle, mouse.column <= 1 { return move(by: -1, wrapping: false, at: time) }
    if mouse.row == middle, mouse.column >= screen.columns - 2 { return move(by: 1, wrapping: false, at: time) }
    return []
  }

  private mutating func handleWheel(_ key: Key, at time: Double) -> [TopAction] {
    let page = screen.wheelRows
    switch key {
    case .up: scrollWheel(by: -1, at: time)
    case .down: scrollWheel(by: 1, at: time)
    case .pageUp: scrollWheel(by: -page, at: time)
    case .pageDown: scrollWheel(by: page, at: time)
    case .home: scrollWheel(by: Int.min, at: time)
    case .end: scrollWheel(by: Int.max, at: time)
    case .backspace: wheel?.erase()
    case .escape: wheel = nil
    case .character("p"): wheel = nil
    case .enter:
      defer { wheel = nil }
      guard let wheel, let name = selectedName.flatMap(ChannelName.init) else { return [] }
      return [.send(.write(name, .set(wheel.value)))]
    case .character(let digit): wheel?.type(digit)
    default: break
    }
    return []
  }

  private mutating func openWheel(at time: Double) {
    guard let name = selectedName, let snapshot = badges[name]?.snapshot else { return }
    wheel = NumberWheel(value: snapshot.count)
    wheelScroll.set(0, at: time)
  }

  /// Scrolls the wheel by `rows`: a move of up to a page rolls the values past the middle,
  /// from where they were, with `TopMotions.wheelScroll` (retargeted when another comes first).
  private mutating func scrollWheel(by rows: Int, at time: Double) {
    guard let before = wheel?.value else { return }
    wheel?.scroll(by: rows)
    let moved = (wheel?.value ?? before) - before
    let pending = wheelScroll.value(at: time) + Double(moved)
    guard !options.noMotion, abs(pending) <= Double(screen.wheelRows) else {
      wheelScroll.set(0, at: time)
      return
    }
    wheelScroll.set(pending, at: time)
    wheelScroll.animate(to: 0, with: TopMotions.wheelScroll, at: time)
  }

  /// The value in the wheel's middle at `time`: its value, or one it is scrolling past.
  public func wheelCentre(at time: Double) -> Int? {
    wheel.map { $0.value - Int(wheelScroll.value(at: time).rounded()) }
  }

  /// What the stepper changes `name`'s count by: the channel's `step` as the daemon last said.
  public func step(of name: String) -> Int { badges[name]?.snapshot.step ?? 1 }

  /// A press of the stepper: the request it makes, its step grown while the press is held.
  private mutating func step(up: Bool, key: String, at time: Double) -> [TopAction] {
    let factor = hold.press(key, at: time)
    guard let name = selectedName, let snapshot = badges[name]?.snapshot, snapshot.online else { return [] }
    let (amount, overflow) = snapshot.step.multipliedReportingOverflow(by: factor)
    guard
      let request = Stepper.request(
        channel: name, count: snapshot.count, step: overflow ? Limits.maxCount : amount, up: up)
    else { return [] }
    return [.send(request)]
  }

  private mutating func move(by delta: Int, wrapping: Bool, at time: Double) -> [TopAction] {
    guard !names.isEmpty else { return [] }
    var index = selection.selected + delta
    if wrapping {
      index = (index % names.count + names.count) % names.count
    }
    return select(index, at: time)
  }

  /// Selects channel `index`: the capsule and page slide, and an open panel shows its figures.
  private mutating func select(_ index: Int, at time: Double) -> [TopAction] {
    guard names.indices.contains(index), index != selection.selected else { return [] }
    selection.select(index, layout: layout, width: screen.columns, at: time)
    return stats?.show(names[index]).map { [.send($0)] } ?? []
  }

  /// Opens the statistics panel on the selected channel, or closes it.
  private mutating func toggleStats() -> [TopAction] {
    if stats != nil {
      stats = nil
      return []
    }
    guard let name = selectedName else { return [] }
    var pane = StatsPane(channel: name, noMotion: options.noMotion)
    let request = pane.opened()
    stats = pane
    return request.map { [.send($0)] } ?? []
  }
}
