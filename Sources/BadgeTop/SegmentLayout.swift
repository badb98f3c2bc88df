/// Where the segments of the channel bar sit: one segment per channel, as wide as its content
/// (name and badge) plus room on each side for the capsule's rounded caps.
///
/// Positions are in content cells, from the bar's left end before scrolling; `scrollOffset`
/// says which part of the content a bar of a given width shows.
public struct SegmentLayout: Equatable, Sendable {
  /// One segment: its first cell and its width, caps included.
  public struct Segment: Equatable, Sendable {
    public var x: Int
    public var width: Int

    public init(x: Int, width: Int) {
      self.x = x
      self.width = width
    }

    /// The cell in the middle of the segment (content coordinates).
    public var centre: Double { Double(x) + Double(width) / 2 }
  }

  /// Cells on each side of a segment's content: the capsule's cap and a blank.
  public static let padding = 2

  public let segments: [Segment]
  /// The width of all segments together.
  public let contentWidth: Int

  /// Segments for contents of the given widths, side by side.
  public init(contentWidths: [Int]) {
    var x = 0
    var segments: [Segment] = []
    for width in contentWidths {
      let segment = Segment(x: x, width: max(width, 0) + 2 * SegmentLayout.padding)
      segments.append(segment)
      x += segment.width
    }
    self.segments = segments
    contentWidth = x
  }

  /// The scroll offset that keeps segment `index` centred in a bar `width` cells wide, without
  /// scrolling past either end; 0 when everything fits.
  public func scrollOffset(centring index: Int, in width: Int) -> Int {
    guard contentWidth > width, segments.indices.contains(index) else { return 0 }
    let ideal = Int((segments[index].centre - Double(width) / 2).rounded())
    return min(max(ideal, 0), contentWidth - width)
  }

  /// The segment under content cell `x`, if any.
  public func segment(at x: Int) -> Int? {
    segments.firstIndex { x >= $0.x && x < $0.x + $0.width }
  }
}
