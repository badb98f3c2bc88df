import BadgeCore
import BadgeCtl

/// Which channels a click clears, each as it was shown, so the click clears what was seen
/// (`ChannelSnapshot.clearRequest`: up to the total shown) and not what arrived since.
///
/// Every channel the watcher names exactly (even when it shows 0: the daemon knows better),
/// and every channel it shows that one of its globs matches and that has unread items; a
/// watcher of every channel (no patterns) clears every channel it shows with unread items.
/// A click never clears a channel the watcher does not show.
enum ClickTargets {
  static func channels(patterns: [ChannelPattern], shown: [ChannelSnapshot]) -> [ChannelSnapshot] {
    // An exact name is shown from the first snapshot on; before it, it is cleared whole.
    var targets = patterns.filter { !$0.isGlob }.map { pattern in
      shown.first { $0.channel == pattern.description }
        ?? ChannelSnapshot(
          channel: pattern.description, count: 0, label: "", dot: false, pulseMs: 0, muted: false, seq: 0)
    }
    let globs = patterns.isEmpty ? [ChannelPattern.all] : patterns.filter(\.isGlob)
    for snapshot in shown where snapshot.count > 0 && snapshot.online {
      guard !targets.contains(where: { $0.channel == snapshot.channel }), let name = ChannelName(snapshot.channel)
      else { continue }
      if globs.contains(where: { $0.matches(name) }) { targets.append(snapshot) }
    }
    return targets
  }
}
