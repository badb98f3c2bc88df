import BadgeMotion

/// The motions of `badgectl top`, from MOTION.md's "What the seeds ask": one place for every
/// curve the dashboard uses beyond a badge's own (those are `BadgeMotions`).
public enum TopMotions {
  /// The segmented control's capsule, the bar's scrolling and the page below all slide with
  /// this spring, so that they stay linked and retarget together.
  public static let selection = Animation.spring(response: 0.35, dampingFraction: 0.8)

  /// The number wheel scrolls its values past the middle with this curve (a page at most;
  /// further jumps, typed or to an end, show at once).
  public static let wheelScroll = Animation.easeInOut(duration: 0.25)
}
