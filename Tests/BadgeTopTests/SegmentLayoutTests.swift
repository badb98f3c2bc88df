import BadgeTop
import Testing

@Suite struct SegmentLayoutTests {
  @Test func segmentsAreAsWideAsTheirContentPlusTheCapsulesCaps() {
    let layout = SegmentLayout(contentWidths: [4, 8, 2])
    #expect(
      layout.segments == [
        .init(x: 0, width: 8), .init(x: 8, width: 12), .init(x: 20, width: 6),
      ])
    #expect(layout.contentWidth == 26)
    #expect(layout.segment(at: 0) == 0)
    #expect(layout.segment(at: 7) == 0)
    #expect(layout.segment(at: 8) == 1)
    #expect(layout.segment(at: 25) == 2)
    #expect(layout.segment(at: 26) == nil)
    #expect(layout.segment(at: -1) == nil)
  }

  @Test func aBarThatFitsNeverScrolls() {
    let layout = SegmentLayout(contentWidths: [4, 8, 2])
    for index in 0..<3 { #expect(layout.scrollOffset(centring: index, in: 26) == 0) }
    #expect(layout.scrollOffset(centring: 2, in: 100) == 0)
  }

  @Test func aLongBarKeepsTheSelectionCentredWithoutScrollingPastItsEnds() {
    // Ten segments of 10 cells (6 of content): 100 cells in a 30-cell bar.
    let layout = SegmentLayout(contentWidths: Array(repeating: 6, count: 10))
    // The first segments cannot be centred without showing space before the bar: 0.
    #expect(layout.scrollOffset(centring: 0, in: 30) == 0)
    #expect(layout.scrollOffset(centring: 1, in: 30) == 0)
    // Segment 4 is at 40…50, centre 45: the bar shows 30…60.
    #expect(layout.scrollOffset(centring: 4, in: 30) == 30)
    #expect(layout.scrollOffset(centring: 5, in: 30) == 40)
    // The last ones stop at the end: 70…100.
    #expect(layout.scrollOffset(centring: 8, in: 30) == 70)
    #expect(layout.scrollOffset(centring: 9, in: 30) == 70)
  }
}

@Suite struct SegmentLayoutChangeTests {
  /// Each change of one segment leaves the layout a new one made from the widths would be.
  @Test func changingOneSegmentMovesThoseAfterIt() {
    var layout = SegmentLayout(contentWidths: [4, 8, 2])
    layout.setContentWidth(10, at: 1)
    #expect(layout == SegmentLayout(contentWidths: [4, 10, 2]))
    #expect(layout.contentWidth(at: 1) == 10)
    layout.setContentWidth(-3, at: 0)  // as the initializer does: no content is 0
    #expect(layout == SegmentLayout(contentWidths: [0, 10, 2]))
    layout.insert(contentWidth: 5, at: 0)
    #expect(layout == SegmentLayout(contentWidths: [5, 0, 10, 2]))
    layout.insert(contentWidth: 7, at: 4)
    #expect(layout == SegmentLayout(contentWidths: [5, 0, 10, 2, 7]))
    layout.insert(contentWidth: 1, at: 2)
    #expect(layout == SegmentLayout(contentWidths: [5, 0, 1, 10, 2, 7]))
    layout.remove(at: 3)
    #expect(layout == SegmentLayout(contentWidths: [5, 0, 1, 2, 7]))
    layout.remove(at: 4)
    layout.remove(at: 0)
    #expect(layout == SegmentLayout(contentWidths: [0, 1, 2]))
    for _ in 0..<3 { layout.remove(at: 0) }
    #expect(layout == SegmentLayout(contentWidths: []) && layout.contentWidth == 0)
    layout.insert(contentWidth: 3, at: 0)
    #expect(layout.segments == [.init(x: 0, width: 7)] && layout.contentWidth == 7)
  }
}
