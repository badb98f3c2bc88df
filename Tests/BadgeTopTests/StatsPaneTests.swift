import BadgeCore
import BadgeRender
import BadgeTop
import Testing

/// The dashboard's statistics panel: which requests it makes and when the count-up replays.
@Suite struct StatsPaneTests {
  func figures(_ channel: String, _ period: StatsPeriod, arrivals: Int) -> [ChannelStats] {
    var days = Array(repeating: DayFigures.zero, count: period.days)
    days[days.count - 1] = DayFigures(arrivals: arrivals, clears: 0, peak: arrivals)
    return [ChannelStats(channel: channel, period: period, firstDay: 20_000, days: days)]
  }

  func model() -> TopModel {
    var model = TopModel(options: TopOptions(colour: .palette256), rows: 32, columns: 100)
    for (name, count) in [("ci", 1), ("mail", 42)] {
      model.update(
        ChannelSnapshot(
          channel: name, count: count, label: String(count), dot: false, pulseMs: 0, muted: false, seq: 1), at: 0)
    }
    return model
  }

  @Test func openingAsksForTheWeekAndCountsUpWhenTheFiguresArrive() {
    var model = model()
    _ = model.handle(.character("2"), at: 1)
    #expect(model.handle(.character("s"), at: 2) == [.send("STATS week mail")])
    #expect(model.statsArrived(figures("mail", .week, arrivals: 42), at: 3) == [])
    let countUp = model.stats!.countUp
    // MOTION.md: 0 → 42 with easeOut(0.75) is 15.88 at 0.1875 s, 28.76 at 0.375, 38.07 at 0.5625.
    #expect(countUp.count(42, at: 3) == 0)
    #expect(countUp.count(42, at: 3.1875) == 15)
    #expect(countUp.count(42, at: 3.375) == 28)
    #expect(countUp.count(42, at: 3.5625) == 38)
    #expect(countUp.count(42, at: 3.75) == 42)
    // The panel draws frames while it counts, and none once it rests.
    #expect(model.nextWake(after: 3.5) != nil)
    #expect(model.nextWake(after: 3.8) == nil)
    let canvas = TopView.canvas(model, at: 4)
    #expect(canvas.text.contains("▐ week ▌"))
    #expect(canvas.text.contains("arrivals clears peak"))
    #expect(canvas.text.contains("42      0   42"))
  }

  @Test func aPeriodSwitchReplaysTheCountUpButALiveRefreshDoesNot() {
    var model = model()
    _ = model.handle(.character("2"), at: 0)
    _ = model.handle(.character("s"), at: 0)
    _ = model.statsArrived(figures("mail", .week, arrivals: 42), at: 0)
    #expect(model.handle(.character("]"), at: 2) == [.send("STATS month mail")])
    _ = model.statsArrived(figures("mail", .month, arrivals: 50), at: 2.1)
    #expect(model.stats!.countUp.count(50, at: 2.1) == 0)
    #expect(model.stats!.countUp.count(50, at: 2.85) == 50)
    // An event that changes mail asks for fresh figures; they show at once.
    let event = ChannelSnapshot(channel: "mail", count: 43, label: "43", dot: false, pulseMs: 0, muted: false, seq: 2)
    #expect(model.update(event, at: 5) == [.send("STATS month mail")])
    _ = model.statsArrived(figures("mail", .month, arrivals: 51), at: 5.1)
    #expect(model.stats!.countUp.count(51, at: 5.1) == 51)
    #expect(model.stats!.stats?.totals.arrivals == 51)
    // An event for another channel, or one that changes nothing (a pulse's end), asks nothing.
    let ci = ChannelSnapshot(channel: "ci", count: 2, label: "2", dot: false, pulseMs: 0, muted: false, seq: 3)
    #expect(model.update(ci, at: 6) == [])
    #expect(model.update(event, at: 7) == [])
    // The ends of the control stop the keys; a click on a period selects it.
    #expect(model.handle(.character("]"), at: 8) == [.send("STATS year mail")])
    #expect(model.handle(.character("]"), at: 9) == [])
    let day = MouseEvent(.press, row: model.screen.statsOrigin.row, column: model.screen.statsOrigin.column + 3)
    #expect(model.handle(.mouse(day), at: 10) == [.send("STATS day mail")])
  }

  @Test func eventsDuringARequestMakeOneMoreRequestAfterIt() {
    var model = model()
    _ = model.handle(.character("s"), at: 0)  // ci
    _ = model.statsArrived(figures("ci", .week, arrivals: 1), at: 0.1)
    var seq: UInt64 = 10
    func event(_ count: Int) -> ChannelSnapshot {
      seq += 1
      return ChannelSnapshot(
        channel: "ci", count: count, label: String(count), dot: false, pulseMs: 0, muted: false, seq: seq)
    }
    #expect(model.update(event(2), at: 1) == [.send("STATS week ci")])
    #expect(model.update(event(3), at: 1.1) == [])
    #expect(model.update(event(4), at: 1.2) == [])
    #expect(model.statsArrived(figures("ci", .week, arrivals: 2), at: 1.3) == [.send("STATS week ci")])
    #expect(model.statsArrived(figures("ci", .week, arrivals: 4), at: 1.4) == [])
    #expect(model.stats!.stats?.totals.arrivals == 4)
  }

  @Test func selectingAnotherChannelShowsItsFiguresAndClosingStopsAsking() {
    var model = model()
    _ = model.handle(.character("s"), at: 0)
    #expect(model.handle(.right, at: 1) == [.send("STATS week mail")])
    // A late reply for ci is not shown for mail.
    _ = model.statsArrived(figures("ci", .week, arrivals: 1), at: 1.1)
    #expect(model.stats!.stats == nil)
    _ = model.statsArrived(figures("mail", .week, arrivals: 9), at: 1.2)
    #expect(model.stats!.stats?.channel == "mail")
    #expect(model.handle(.character("s"), at: 2) == [])
    #expect(model.stats == nil)
    let event = ChannelSnapshot(channel: "mail", count: 50, label: "50", dot: false, pulseMs: 0, muted: false, seq: 9)
    #expect(model.update(event, at: 3) == [])
  }
}
