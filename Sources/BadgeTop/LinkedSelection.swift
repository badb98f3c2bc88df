import BadgeMotion

/// The selected channel and everything that follows it on a spring: the capsule indicator of
/// the segmented bar, the bar's scroll, and the page below.
///
/// One selection drives all three, so selecting a segment moves the page and moving between
/// pages moves the capsule: they are linked both ways because there is only one thing to move.
/// A selection made while the springs still move retargets them from where they are, with the
/// velocity they have (`AnimatedValue`), so the motion bends rather than jumps.
public struct LinkedSelection: Sendable {
  enum Part: Hashable, Sendable { case indicatorX, indicatorWidth, scroll, page }

  /// The selected segment's index.
  public private(set) var selected: Int
  private var timeline: Timeline<Part>
  /// Whether changes jump to their end (reduced motion).
  private let noMotion: Bool

  /// Rests on segment `index` of `layout` in a bar `width` cells wide.
  public init(selected index: Int, layout: SegmentLayout, width: Int, noMotion: Bool = false) {
    selected = index
    self.noMotion = noMotion
    let segment = layout.segments.indices.contains(index) ? layout.segments[index] : .init(x: 0, width: 0)
    timeline = Timeline([
      .indicatorX: Double(segment.x), .indicatorWidth: Double(segment.width),
      .scroll: Double(layout.scrollOffset(centring: index, in: width)), .page: Double(index),
    ])
  }

  /// Selects segment `index` at `time`: the capsule, the scroll and the page slide there.
  public mutating func select(_ index: Int, layout: SegmentLayout, width: Int, at time: Double) {
    selected = index
    follow(layout: layout, width: width, at: time, animated: true)
  }

  /// Takes in a new layout at `time` (a badge changed width, the terminal was resized, a
  /// channel arrived): the capsule and scroll slide to the selected segment's new place.
  /// `selected` may name a new index for the same channel (one arrived before it); the page
  /// then moves there at once, since it shows the same channel.
  public mutating func relayout(
    _ layout: SegmentLayout, width: Int, selected index: Int? = nil, animated: Bool, at time: Double
  ) {
    if let index, index != selected {
      let shift = Double(index - selected)
      selected = index
      // The page stays where it is relative to the channel it shows; a slide in flight ends.
      timeline[.page].set(timeline.value(.page, at: time) + shift, at: time)
    }
    follow(layout: layout, width: width, at: time, animated: animated)
  }

  private mutating func follow(layout: SegmentLayout, width: Int, at time: Double, animated: Bool) {
    guard layout.segments.indices.contains(selected) else { return }
    let segment = layout.segments[selected]
    move(.indicatorX, to: Double(segment.x), animated: animated, at: time)
    move(.indicatorWidth, to: Double(segment.width), animated: animated, at: time)
    move(.scroll, to: Double(layout.scrollOffset(centring: selected, in: width)), animated: animated, at: time)
    move(.page, to: Double(selected), animated: animated, at: time)
  }

  /// Starts a spring towards `target` unless the value already rests there (a spring applied
  /// to a resting value at its target would still count as motion until it settles).
  private mutating func move(_ part: Part, to target: Double, animated: Bool, at time: Double) {
    let value = timeline[part]
    guard value.finalValue != target || value.isMoving(at: time) else { return }
    if animated && !noMotion {
      timeline[part].animate(to: target, with: TopMotions.selection, at: time)
    } else {
      timeline[part].set(target, at: time)
    }
  }

  /// The capsule's left edge and width at `time`, in content cells (fractional in flight).
  public func indicator(at time: Double) -> (x: Double, width: Double) {
    (timeline.value(.indicatorX, at: time), timeline.value(.indicatorWidth, at: time))
  }

  /// How far the bar is scrolled at `time`, in cells.
  public func scroll(at time: Double) -> Double { timeline.value(.scroll, at: time) }

  /// Which page shows at `time`, as a fractional page index: 2.25 is a quarter of the way from
  /// page 2 to page 3.
  public func page(at time: Double) -> Double { timeline.value(.page, at: time) }

  /// The earliest time from `time` on at which anything moves; `nil` at rest.
  public func nextChange(after time: Double) -> Double? { timeline.nextChange(after: time) }
}
