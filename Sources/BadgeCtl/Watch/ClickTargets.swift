import BadgeCore

/// Which channels a click clears.
///
/// Every channel the watcher names exactly (even when it shows 0: the daemon knows better),
/// and every channel it shows that one of its globs matches and that has unread items; a
/// watcher of every channel (no patterns) clears every channel it shows with unread items.
/// A click never clears a channel the watcher does not show.
enum ClickTargets {
  static func channels(patterns: [ChannelPattern], shown: [ChannelSnapshot]) -> [String] {
    var names = patterns.filter { !$0.isGlob }.map(\.description)
    let globs = patterns.isEmpty ? [ChannelPattern.all] : patterns.filter(\.isGlob)
    for snapshot in shown where snapshot.count > 0 && snapshot.online && !names.contains(snapshot.channel) {
      guard let name = ChannelName(snapshot.channel) else { continue }
      if globs.contains(where: { $0.matches(name) }) { names.append(snapshot.channel) }
    }
    return names
  }
}
