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
  ///   offline)" while its owner is out of reach (the count is the last one known), and
  ///   ", changes waiting" inside them while writes made here wait for the owner
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
      if mirror.stale { text += ", offline" }
      if mirror.pending { text += ", changes waiting" }
      text += ")"
    }
    return text
  }

  /// Several channels, one per line.
  public static func describe(_ frames: [BadgeFrame]) -> String {
    frames.map(describe).joined(separator: "\n")
  }
}
