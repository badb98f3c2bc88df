import BadgeCore
import BadgeRender
import BadgeTop
import Testing

@Suite struct TopModelTests {
  func snapshot(_ channel: String, _ count: Int, muted: Bool = false, step: Int = 1) -> ChannelSnapshot {
    ChannelSnapshot(
      channel: channel, count: count, label: count == 0 ? "" : String(min(count, 99)) + (count > 99 ? "+" : ""),
      dot: false, pulseMs: 0, muted: muted, seq: 1, step: step)
  }

  /// A dashboard of mail (3), ci (0) and news (120), in colour, 100 × 32; ci and mail have the
  /// step `step`, news always 1.
  func model(step: Int = 1) -> TopModel {
    var model = TopModel(options: TopOptions(colour: .palette256), rows: 32, columns: 100)
    for (name, count) in [("ci", 0), ("mail", 3)] { model.update(snapshot(name, count, step: step), at: 0) }
    model.update(snapshot("news", 120), at: 0)
    return model
  }

  @Test func channelsAreInNameOrderAndKeysSelectThem() {
    var model = model()
    #expect(model.names == ["ci", "mail", "news"])
    #expect(model.selectedName == "ci")
    #expect(model.handle(.right, at: 1) == [])
    #expect(model.selectedName == "mail")
    _ = model.handle(.right, at: 1.1)
    _ = model.handle(.right, at: 1.2)  // no further than the last
    #expect(model.selectedName == "news")
    _ = model.handle(.tab, at: 1.3)  // Tab wraps
    #expect(model.selectedName == "ci")
    _ = model.handle(.backTab, at: 1.4)
    #expect(model.selectedName == "news")
    _ = model.handle(.character("2"), at: 1.5)
    #expect(model.selectedName == "mail")
    _ = model.handle(.character("9"), at: 1.6)  // there is no ninth channel
    #expect(model.selectedName == "mail")
  }

  @Test func theStepperAsksTheDaemonAndRespectsItsBounds() {
    var model = model(step: 5)
    #expect(model.handle(.character("-"), at: 1) == [])  // ci is at 0: minus is disabled
    #expect(model.handle(.character("+"), at: 2) == [.send("INCR ci 5")])
    _ = model.handle(.right, at: 3)
    #expect(model.handle(.character("-"), at: 4) == [.send("DECR mail 5")])
    _ = model.handle(.right, at: 4.1)
    #expect(model.handle(.character("+"), at: 4.2) == [.send("INCR news 1")])  // its own step
    _ = model.handle(.left, at: 4.3)
    #expect(model.handle(.character("c"), at: 5) == [.send("CLEAR mail")])
    #expect(model.handle(.character("m"), at: 6) == [.send("MUTE mail")])
    model.update(snapshot("mail", 3, muted: true), at: 6.1)
    #expect(model.handle(.character("m"), at: 7) == [.send("UNMUTE mail")])
    #expect(model.handle(.character("q"), at: 8) == [.quit])
    #expect(model.handle(.interrupt, at: 8) == [.quit])
  }

  /// `c` clears what the page shows: up to the running total of the state it drew, so what
  /// arrives after it stays (a daemon that sends no total gets a whole clear, as above).
  @Test func clearingClearsUpToTheTotalShown() {
    var model = model()
    var mail = snapshot("mail", 3)
    mail.total = 7
    model.update(mail, at: 0.5)
    _ = model.handle(.right, at: 1)
    #expect(model.handle(.character("c"), at: 2) == [.send("CLEAR mail upto=7")])
  }

  @Test func theWheelPicksAValueAndEnterSetsIt() {
    var model = model()
    _ = model.handle(.character("3"), at: 1)  // news, 120
    _ = model.handle(.character("p"), at: 2)
    #expect(model.wheel?.value == 120)
    _ = model.handle(.up, at: 2.1)
    _ = model.handle(.pageDown, at: 2.2)
    #expect(model.wheel?.value == 119 + model.screen.wheelRows)
    // While the wheel is open, digits type a value rather than select a channel.
    for digit in "42" { _ = model.handle(.character(digit), at: 2.3) }
    #expect(model.selectedName == "news")
    #expect(model.handle(.enter, at: 3) == [.send("SET news 42")])
    #expect(model.wheel == nil)
    _ = model.handle(.character("p"), at: 4)
    #expect(model.handle(.escape, at: 5) == [])
    #expect(model.wheel == nil)
  }

  @Test func clicksSelectSegmentsAndPressTheStepper() {
    var model = model()
    // Segments: ci (6 cells of content: "ci", no badge → 2 + 4) then mail.
    let mailColumn = 2 + 4 + 2 + 1
    #expect(model.handle(.mouse(MouseEvent(.press, row: TopLayout.barRow, column: mailColumn)), at: 1) == [])
    #expect(model.selectedName == "mail")
    let plus = MouseEvent(.press, row: TopLayout.stepperRow, column: TopLayout.plusColumn + 2)
    #expect(model.handle(.mouse(plus), at: 2) == [.send("INCR mail 1")])
    // Held: it repeats after 0.4 s, then every 0.1 s; the loop wakes for it.
    #expect(model.nextWake(after: 2.01).map { $0 <= 2.4 } == true)
    #expect(model.advance(to: 2.4) == [.send("INCR mail 1")])
    #expect(model.advance(to: 2.45) == [])
    #expect(model.advance(to: 2.5) == [.send("INCR mail 1")])
    _ = model.handle(.mouse(MouseEvent(.release, row: TopLayout.stepperRow, column: 0)), at: 2.55)
    #expect(model.advance(to: 2.6) == [])
  }

  @Test func anIdleDashboardNeedsNoWake() {
    var model = model()
    #expect(model.nextWake(after: 5) == nil)
    _ = model.handle(.right, at: 6)
    #expect(model.nextWake(after: 6) != nil)
    #expect(model.nextWake(after: 8) == nil)
  }

  @Test func theCanvasShowsTheBarThePageAndTheStepper() {
    var model = model()
    _ = model.handle(.character("2"), at: 0)
    let canvas = TopView.canvas(model, at: 5)
    #expect(canvas.text(row: 0).contains("ci") && canvas.text(row: 0).contains("mail  3"))
    #expect(canvas.text(row: 0).contains("news  99+"))
    #expect(canvas.text(row: TopLayout.titleRow).drop { $0 == " " }.hasPrefix("mail"))
    // The big 3 of BigFont, and the stepper.
    #expect(canvas.text(row: TopLayout.countRow).contains("███"))
    #expect(canvas.text(row: TopLayout.stepperRow).contains("[ − ]  step 1  [ + ]"))
    // The page shows the selected channel's own step.
    var stepped = self.model(step: 25)
    _ = stepped.handle(.character("2"), at: 0)
    #expect(TopView.canvas(stepped, at: 5).text(row: TopLayout.stepperRow).contains("[ − ] step 25  [ + ]"))
    // Offline: every channel takes the offline look, and the footer says so.
    model.setOnline(false, at: 6)
    let offline = TopView.canvas(model, at: 8)
    #expect(offline.text(row: 0).contains("3?"))
    #expect(offline.text(row: 31).hasPrefix("offline"))
  }
}

@Suite struct TopModelArrivalTests {
  @Test func aChannelArrivingKeepsTheSelectedChannelSelected() {
    var model = TopModel(options: TopOptions(colour: .none), rows: 32, columns: 100)
    model.update(
      ChannelSnapshot(channel: "mail", count: 1, label: "1", dot: false, pulseMs: 0, muted: false, seq: 1), at: 0)
    model.update(
      ChannelSnapshot(channel: "ci", count: 1, label: "1", dot: false, pulseMs: 0, muted: false, seq: 2), at: 1)
    #expect(model.names == ["ci", "mail"])
    #expect(model.selectedName == "mail")
    #expect(model.nextWake(after: 1) == nil)  // the page did not move
  }
}

@Suite struct WheelScrollTests {
  @Test func theWheelRollsItsValuesPastTheMiddleThenRests() {
    var model = TopModel(options: TopOptions(colour: .none), rows: 32, columns: 100)
    model.update(
      ChannelSnapshot(channel: "mail", count: 10, label: "10", dot: false, pulseMs: 0, muted: false, seq: 1), at: 0)
    _ = model.handle(.character("p"), at: 1)
    #expect(model.wheelCentre(at: 1) == 10)
    _ = model.handle(.pageDown, at: 2)  // 7 rows: 10 → 17 over easeInOut(0.25)
    let rows = model.screen.wheelRows
    #expect(model.wheel?.value == 10 + rows)
    #expect(model.wheelCentre(at: 2) == 10)
    // easeInOut at half time is half way: 4.5 of the 9 rows still to go, rounded to 5.
    #expect(rows == 9)
    #expect(model.wheelCentre(at: 2.125) == 14)
    #expect(model.wheelCentre(at: 2.25) == 10 + rows)
    #expect(model.nextWake(after: 2.1) != nil)
    #expect(model.nextWake(after: 2.3) == nil)
    // A jump further than a page (typed, or to an end) shows at once.
    _ = model.handle(.end, at: 3)
    #expect(model.wheelCentre(at: 3) == 2_147_483_647)
    let canvas = TopView.canvas(model, at: 3)
    #expect(canvas.text.contains("›   2147483647"))
  }
}
