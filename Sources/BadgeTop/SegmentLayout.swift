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

  public private(set) var segments: [Segment]
  /// The width of all segments together.
  public private(set) var contentWidth: Int

  /// Segments for contents of the given widths, side by side.
  public init(contentWidths: [Int]) {
    var x = 0
    var segments: [Segment] = []
    segments.reserveCapacity(contentWidths.count)
    for width in contentWidths {
      let segment = Segment(x: x, width: max(width, 0) + 2 * SegmentLayout.padding)
      segments.append(segment)
      x += segment.width
    }
    self.segments = segments
    contentWidth = x
  }

  // MARK: - One segment at a time
  //
  // A bar of thousands of channels changes one segment per event: these move only the
  // segments after it, where building the layout again would make every segment anew.

  /// The width of segment `index`'s content.
  public func contentWidth(at index: Int) -> Int { segments[index].width - 2 * SegmentLayout.padding }

  /// Segment `index`'s content is now `width` cells wide; the segments after it move.
  public mutating func setContentWidth(_ width: Int, at index: Int) {
    let change = max(width, 0) + 2 * SegmentLayout.padding - segments[index].width
    guard change != 0 else { return }
    segments[index].width += change
    shift(from: index + 1, by: change)
  }

  /// A segment for content `width` cells wide goes in at `index`; the segments after it move.
  public mutating func insert(contentWidth width: Int, at index: Int) {
    let x = index < segments.count ? segments[index].x : contentWidth
    let segment = Segment(x: x, width: max(width, 0) + 2 * SegmentLayout.padding)
    segments.insert(segment, at: index)
    shift(from: index + 1, by: segment.width)
  }

  /// Segment `index` goes; the segments after it move into its place.
  public mutating func remove(at index: Int) {
    let gone = segments.remove(at: index)
    shift(from: index, by: -gone.width)
  }

  private mutating func shift(from index: Int, by cells: Int) {
    for later in index..<segments.count { segments[later].x += cells }
    contentWidth += cells
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
