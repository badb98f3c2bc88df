/// The state a badge is in, by importance: what Waybar's `alt` and the `{icon}` placeholder
/// pick from.
public enum BadgeState: String, Sendable, CaseIterable {
  case unread
  case muted
  case zero
  case offline

  /// The state of one channel: offline first (its count is stale), then zero, then muted.
  public init(_ frame: BadgeFrame) {
    if !frame.online {
      self = .offline
    } else if frame.count == 0 {
      self = .zero
    } else {
      self = frame.muted ? .muted : .unread
    }
  }

  /// The state of several channels shown as one: offline when any is (the daemon is gone for
  /// all of them), else unread when any unmuted one has unread items, else muted when a muted
  /// one has, else zero.
  public init(_ frames: [BadgeFrame]) {
    let states = Set(frames.map(BadgeState.init))
    self = [.offline, .unread, .muted].first(where: states.contains) ?? .zero
  }
}

/// The format-independent look of a frame: its ink, its classes.
extension BadgeFrame {
  /// The opacity the badge is drawn with: the animated opacity, a dot's pulse, and the dimming
  /// of a muted channel or one do-not-disturb dims. An offline badge is drawn still and whole,
  /// even at 0, so that it never looks like a live one and never vanishes.
  var inkOpacity: Double {
    let animated = online ? opacity * (dot ? dotOpacity : 1) : 1
    let dimming = muted || silenced == .dim ? BadgeMotions.mutedOpacity : 1
    return min(max(animated * dimming, 0), 1)
  }

  /// The scale the badge is drawn at: the animated scale times a dot's pulse; 1 offline.
  var inkScale: Double { online ? scale * (dot ? dotScale : 1) : 1 }

  /// How the scale shows as weight.
  var emphasis: Emphasis { Emphasis(scale: inkScale) }

  /// The colour the badge is drawn in, faded over the background by its opacity.
  func ink(_ palette: Palette) -> RGB {
    (online ? palette.badge : palette.offline).faded(over: palette.background, opacity: inkOpacity)
  }

  /// CSS-style classes: "unread" or "zero", then "dot", "pulse", "muted", "quiet" (the quiet
  /// dot), "dnd" (silenced by do-not-disturb), "offline" as they apply.
  var classes: [String] { BadgeFrame.classes(of: [self]) }

  /// The classes of several channels shown as one: "unread" when any has unread items (else
  /// "zero"), and each other class any of them has.
  static func classes(of frames: [BadgeFrame]) -> [String] {
    var classes = [frames.contains { $0.count > 0 } ? "unread" : "zero"]
    if frames.contains(where: \.dot) { classes.append("dot") }
    if frames.contains(where: \.pulsing) { classes.append("pulse") }
    if frames.contains(where: \.muted) { classes.append("muted") }
    if frames.contains(where: \.isQuiet) { classes.append("quiet") }
    if frames.contains(where: { $0.silenced != nil }) { classes.append("dnd") }
    if frames.contains(where: { !$0.online }) { classes.append("offline") }
    if frames.contains(where: { $0.mirror?.stale == true }) { classes.append("stale") }
    if frames.contains(where: { $0.mirror?.pending == true }) { classes.append("pending") }
    return classes
  }
}
