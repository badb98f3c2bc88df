import BadgeMotion
import BadgeTop
import Testing

/// The capsule, the bar's scroll and the page follow one selection on
/// spring(response 0.35, dampingFraction 0.8): MOTION.md's table gives 0.247831 at 0.05 s,
/// 0.608040 at 0.10 s, 0.968216 at 0.20 s and 1.015008 at 0.30 s of the way.
@Suite struct LinkedSelectionTests {
  /// Three segments at 0, 10 and 20, 10 cells wide (6 of content).
  let layout = SegmentLayout(contentWidths: [6, 6, 6])

  @Test func theCapsuleAndThePageSlideOnTheIndicatorSpring() {
    var selection = LinkedSelection(selected: 0, layout: layout, width: 100)
    #expect(selection.nextChange(after: 0) == nil)
    selection.select(1, layout: layout, width: 100, at: 1)
    for (t, progress) in [(0.05, 0.247831), (0.10, 0.608040), (0.20, 0.968216), (0.30, 1.015008)] {
      let indicator = selection.indicator(at: 1 + t)
      #expect(abs(indicator.x - 10 * progress) < 1e-5, "x at \(t): \(indicator.x)")
      #expect(abs(indicator.width - 10) < 1e-9)
      #expect(abs(selection.page(at: 1 + t) - progress) < 1e-6, "page at \(t)")
    }
    // Everything fits in 100 cells: no scrolling.
    #expect(selection.scroll(at: 1.1) == 0)
    // It comes to rest: the loop may sleep.
    #expect(selection.nextChange(after: 3) == nil)
    #expect(selection.indicator(at: 3).x == 10)
  }

  @Test func aSelectionInFlightRetargetsWithoutAJump() {
    var selection = LinkedSelection(selected: 0, layout: layout, width: 100)
    selection.select(1, layout: layout, width: 100, at: 0)
    let before = selection.indicator(at: 0.1).x
    let slope = (selection.indicator(at: 0.1).x - selection.indicator(at: 0.099).x) / 0.001
    selection.select(2, layout: layout, width: 100, at: 0.1)
    // Same place, same speed at the moment of the retarget; then on to segment 2.
    #expect(abs(selection.indicator(at: 0.1).x - before) < 1e-9)
    let after = (selection.indicator(at: 0.101).x - selection.indicator(at: 0.1).x) / 0.001
    #expect(abs(after - slope) < 1.5, "slope \(slope) then \(after)")
    #expect(selection.indicator(at: 2).x == 20)
    #expect(selection.page(at: 2) == 2)
  }

  @Test func aLongBarScrollsToCentreTheSelection() {
    let long = SegmentLayout(contentWidths: Array(repeating: 6, count: 10))
    var selection = LinkedSelection(selected: 0, layout: long, width: 30)
    selection.select(5, layout: long, width: 30, at: 0)
    #expect(abs(selection.scroll(at: 0.1) - 40 * 0.608040) < 1e-4)
    #expect(selection.scroll(at: 2) == 40)
  }

  @Test func reducedMotionJumps() {
    var selection = LinkedSelection(selected: 0, layout: layout, width: 100, noMotion: true)
    selection.select(2, layout: layout, width: 100, at: 0)
    #expect(selection.indicator(at: 0).x == 20)
    #expect(selection.page(at: 0) == 2)
    #expect(selection.nextChange(after: 0) == nil)
  }

  @Test func aChannelArrivingBeforeTheSelectionKeepsThePageStill() {
    var selection = LinkedSelection(selected: 1, layout: layout, width: 100)
    let four = SegmentLayout(contentWidths: [6, 6, 6, 6])
    selection.relayout(four, width: 100, selected: 2, animated: true, at: 0)
    #expect(selection.selected == 2)
    #expect(selection.page(at: 0) == 2)
    // The capsule slides to the selected segment's new place.
    #expect(selection.indicator(at: 0).x == 10)
    #expect(selection.indicator(at: 2).x == 20)
  }
}
