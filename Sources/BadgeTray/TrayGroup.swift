import BadgeBus
import BadgeCore

/// One tray item's channels (those its `items` pattern matches) and what its icon, tooltip and
/// menu show of them.
///
/// It holds the latest state of each channel as the watch stream hands them on (snapshot lines
/// and events alike); the icon is drawn from one channel made of them all (`aggregate`), so the
/// badge moves as the motion engine moves any channel's.
public struct TrayGroup: Sendable {
  public let pattern: ChannelPattern
  /// The largest count shown as a number (`[tray]` `max_label`).
  public let maxLabel: Int
  /// The matching channels, sorted by name.
  public private(set) var channels: [ChannelSnapshot] = []

  public init(pattern: ChannelPattern, maxLabel: Int) {
    self.pattern = pattern
    self.maxLabel = maxLabel
  }

  /// Takes a snapshot or event of any channel, ignoring those the pattern does not match.
  ///
  /// - Returns: whether it changed the group.
  public mutating func apply(_ snapshot: ChannelSnapshot) -> Bool {
    guard let name = ChannelName(snapshot.channel), pattern.matches(name) else { return false }
    let index = channels.firstIndex { $0.channel >= snapshot.channel } ?? channels.count
    if index < channels.count, channels[index].channel == snapshot.channel {
      guard channels[index] != snapshot else { return false }
      channels[index] = snapshot
    } else {
      channels.insert(snapshot, at: index)
    }
    return true
  }

  /// Forgets every channel: a new connection's snapshot replaces what the last one said.
  public mutating func removeAll() {
    channels.removeAll()
  }

  /// The channels the icon counts and how they look: those not muted, or all of them when
  /// every one is muted (the badge then shows their sum with the muted look). While
  /// do-not-disturb hides some channels' badges (`dnd_badges = hide`), their counts are left out
  /// too, unless they are all there is to show: then the badge is hidden as theirs are. It is
  /// silenced (dimmed, or shown as ever) when every counted channel with a count is.
  private var counted: (channels: [ChannelSnapshot], muted: Bool, silenced: DNDBadges?) {
    let unmuted = channels.filter { !$0.muted }
    let allMuted = unmuted.isEmpty && !channels.isEmpty
    var counted = allMuted ? channels : unmuted
    if counted.contains(where: { $0.count > 0 && $0.silenced != .hide }) {
      counted.removeAll { $0.silenced == .hide }
    }
    let withCount = counted.filter { $0.count > 0 }
    let silenced = withCount.allSatisfy { $0.silenced != nil } ? withCount.first?.silenced : nil
    return (counted, allMuted, silenced)
  }

  /// The group as one channel for the animator: named by the pattern, counting the unmuted
  /// channels' counts (all of them, muted, when every channel is muted), labelled as a channel
  /// with the tray's `max_label`, a dot when every counted channel with a count is dot-style,
  /// pulsing for the longest window of a pulsing one, silenced as `counted` says. No total: the
  /// group has none of its own.
  public func aggregate(online: Bool) -> ChannelSnapshot {
    let (counted, muted, silenced) = self.counted
    let count = counted.reduce(0) { $0 + $1.count }
    let withCount = counted.filter { $0.count > 0 }
    let dot = !withCount.isEmpty && withCount.allSatisfy(\.dot)
    return ChannelSnapshot(
      channel: pattern.description, count: count,
      label: Label.text(count: count, maxLabel: maxLabel, style: dot ? .dot : .count), dot: dot,
      pulseMs: counted.filter(\.isPulsing).map(\.pulseMs).max() ?? 0, muted: muted,
      seq: channels.map(\.seq).max() ?? 0, silenced: silenced, unseen: counted.reduce(0) { $0 + $1.unseen },
      online: online)
  }

  /// The item's StatusNotifierItem status: `Passive` when the group counts 0 (or
  /// do-not-disturb hides its badge), `NeedsAttention` while a counted channel is in its pulse
  /// window, else `Active`.
  public var status: String {
    let group = aggregate(online: true)
    if group.count == 0 || group.silenced == .hide { return "Passive" }
    return group.isPulsing ? "NeedsAttention" : "Active"
  }

  /// Whether the item is in the tray under `[tray] empty`: always with `passive`; with `hide`,
  /// only while its status is not Passive.
  public func isShown(_ empty: TrayConfig.Empty) -> Bool {
    empty == .passive || status != "Passive"
  }

  /// The item's title: "badged" for the item of every channel, else "badged: <pattern>".
  public var title: String {
    pattern == .all ? "badged" : "badged: \(pattern)"
  }

  /// The tooltip: the title, and one line per channel ("mail: 3", "chat:alice: 1 (muted)",
  /// "ci: • (from laptop, stale)"); "badged is not running" while badged is away.
  public func toolTip(online: Bool) -> (title: String, body: String) {
    guard online else { return (title, "badged is not running") }
    let lines = channels.map { channel in
      var notes: [String] = []
      if channel.muted { notes.append("muted") }
      if channel.silenced != nil { notes.append("do not disturb") }
      if let mirror = channel.mirror { notes.append("from \(mirror.owner)") }
      if channel.mirror?.stale == true || channel.source?.stale == true { notes.append("stale") }
      let note = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
      return "\(channel.channel): \(countText(channel))\(note)"
    }
    return (title, lines.joined(separator: "\n"))
  }

  /// What a channel's count reads in the tooltip and the menu: its label with the tray's
  /// `max_label` ("3", "99+", "•"), "0" when it has none.
  func countText(_ channel: ChannelSnapshot) -> String {
    let label = Label.text(
      count: channel.count, unseen: channel.unseen, badge: channel.badge, maxLabel: maxLabel,
      style: channel.dot ? .dot : .count)
    return label.isEmpty ? "0" : label
  }

  /// The icon's words for screen readers: "3 unread", "no unread".
  public var accessibleDescription: String {
    let count = aggregate(online: true).count
    return count == 0 ? "no unread" : "\(count) unread"
  }

  /// The app channel (`app:` or `notify:`, `AppChannel`'s rule) with most unread items and its
  /// desktop id, the first by name among equals; `nil` when no app channel has any: what
  /// `activate = open` opens.
  private var largestUnreadAppChannel: (id: String, channel: ChannelName, snapshot: ChannelSnapshot)? {
    var best: (id: String, channel: ChannelName, snapshot: ChannelSnapshot)?
    for channel in channels where channel.count > (best?.snapshot.count ?? 0) {
      if let name = ChannelName(channel.channel), let id = AppChannel.desktopID(of: name) {
        best = (id, name, channel)
      }
    }
    return best
  }
}

extension TrayGroup {
  /// Clearing the group as it is shown: every channel with a count, up to its total (an item
  /// that arrives before the request reaches badged stays); `nil` when none has a count. The
  /// middle click's action, the menu's "Clear all", and `activate = clear`'s.
  public var clearAction: TrayMenu.Action? {
    let targets = channels.compactMap { channel in
      channel.count > 0
        ? ChannelName(channel.channel).map { TrayMenu.ClearTarget(channel: $0, upTo: channel.total) } : nil
    }
    return targets.isEmpty ? nil : .clear(targets)
  }

  /// What a left click does under `[tray] activate`: `open` opens the app of the app channel
  /// with most unread items and, when no app channel has any, clears the group as `clear` does;
  /// `none` does nothing. `nil` when there is nothing to do.
  public func activation(_ activate: TrayConfig.Activate) -> TrayMenu.Action? {
    switch activate {
    case .none: return nil
    case .clear: return clearAction
    case .open:
      guard let app = largestUnreadAppChannel else { return clearAction }
      return .open(desktopID: app.id, channel: app.channel, total: app.snapshot.total)
    }
  }

  /// What the wheel does under `[tray] scroll` (StatusNotifierItem's `Scroll(delta,
  /// orientation)`, a positive delta being up, as KDE sends it): with `step`, on a group of one
  /// channel, up adds the channel's step and down takes it away (nothing below 0); nothing
  /// horizontally, on a group of several channels or none, or with `none`.
  public func scrollAction(delta: Int32, orientation: String, _ scroll: TrayConfig.Scroll) -> TrayMenu.Action? {
    guard scroll == .step, orientation.lowercased() == "vertical", delta != 0, channels.count == 1,
      let name = ChannelName(channels[0].channel)
    else { return nil }
    let channel = channels[0]
    if delta < 0 && channel.count == 0 { return nil }
    return .step(channel: name, by: delta > 0 ? channel.step : -channel.step)
  }
}
