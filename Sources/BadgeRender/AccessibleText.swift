/// The words for a badge, for tooltips and screen readers: what the count is, not what the
/// badge happens to show.
public enum AccessibleText {
  /// One channel:
  /// - "mail: 4 unread", "mail: no unread"
  /// - "ci: 120 unread (shown as 99+)" when the label is truncated
  /// - "alerts: 3 unread" for a dot (the dot hides the number, the words must not)
  /// - "mail: 4 unread, 1 new" when some unread items were seen (`SEEN`), "mail: 4 unread, all
  ///   seen" when all were (the quiet dot of `badge = unseen`)
  /// - ", muted" appended for a muted channel, ", do not disturb" for one it silences
  /// - "mail: offline (last 4 unread)", "mail: offline" when the daemon went away
  /// - " (on server)" appended for a channel mirrored from another machine, " (on server,
  ///   offline 12 min)" while its owner is out of reach (the count is the last one known; see
  ///   `offline(since:now:)`), and ", changes waiting" inside them while writes made here wait
  ///   for the owner
  public static func describe(_ frame: BadgeFrame) -> String {
    var text = frame.channel + ": "
    if !frame.online {
      text += frame.count > 0 ? "offline (last \(frame.count) unread)" : "offline"
    } else if frame.count == 0 {
      text += "no unread"
    } else {
      text += "\(frame.count) unread"
      if frame.isTruncated { text += " (shown as \(frame.label))" }
      if frame.unseen == 0 {
        text += ", all seen"
      } else if frame.unseen < frame.count {
        text += ", \(frame.unseen) new"
      }
    }
    if frame.muted { text += ", muted" }
    if frame.silenced != nil { text += ", do not disturb" }
    if let mirror = frame.mirror {
      text += " (on \(mirror.owner)"
      if mirror.stale { text += ", " + offline(since: mirror.since, now: frame.wallSeconds) }
      if mirror.pending { text += ", changes waiting" }
      text += ")"
    }
    return text
  }

  /// How long an owner has been out of reach, in the largest whole unit: "offline 12 min",
  /// "offline 3 h", "offline 2 d"; under a minute, or without the wall clock or the time it
  /// went (`since` 0), "offline". Rounded down, so "offline 1 h" from 60 to 119 minutes.
  public static func offline(since: Int, now: Int?) -> String {
    guard let now, since > 0 else { return "offline" }
    let elapsed = now - since
    for (unit, seconds) in offlineUnits.reversed() where elapsed >= seconds {
      return "offline \(elapsed / seconds) \(unit)"
    }
    return "offline"
  }

  /// When `offline(since:now:)` next reads otherwise after `now` (unix seconds): the next
  /// whole minute under an hour, the next whole hour under a day, the next whole day after.
  public static func nextOfflineChange(since: Int, after now: Int) -> Int {
    let elapsed = max(now - since, 0)
    let step = offlineUnits.last { elapsed >= $0.seconds }?.seconds ?? offlineUnits[0].seconds
    return since + (elapsed / step + 1) * step
  }

  /// The units of `offline`, smallest first.
  private static let offlineUnits: [(unit: String, seconds: Int)] = [("min", 60), ("h", 3600), ("d", 86400)]

  /// Several channels, one per line.
  public static func describe(_ frames: [BadgeFrame]) -> String {
    frames.map(describe).joined(separator: "\n")
  }
}
