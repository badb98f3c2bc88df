import Testing

@testable import BadgeCore

/// History: arrivals, clears and peaks per local day, from every kind of change, on days the
/// test picks (the store reads no clock).
@Suite struct HistoryTests {
  static let monday = CivilDate(year: 2026, month: 11, day: 30).dayNumber

  /// A store counting on `day`.
  static func store(on day: Int = monday) -> Store {
    let store = Store()
    store.today = day
    return store
  }

  static func figures(_ store: Store, _ channel: String, on day: Int = monday) -> DayFigures? {
    store.history.entry(of: name(channel), on: day)?.figures
  }

  @Test func increasesAreArrivalsAndTheHighestCountIsThePeak() {
    let store = Self.store()
    apply(.write(.incr(3)), "mail", on: store)
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.set(10)), "mail", on: store)  // +6
    apply(.write(.decr(4)), "mail", on: store)
    apply(.write(.set(7)), "mail", on: store)  // +1
    #expect(Self.figures(store, "mail") == DayFigures(arrivals: 11, clears: 0, peak: 10))
  }

  @Test func everyWayToZeroIsAClearAndAClearAtZeroIsNot() {
    let store = Self.store()
    apply(.write(.incr(2)), "mail", on: store)
    apply(.write(.set(0)), "mail", on: store)  // SET 0 (CLEAR)
    apply(.write(.set(0)), "mail", on: store)  // CLEAR at 0: nothing
    apply(.write(.decr(1)), "mail", on: store)  // DECR at 0: nothing
    apply(.write(.incr(5)), "mail", on: store)
    apply(.write(.decr(9)), "mail", on: store)  // DECR past 0
    apply(.write(.incr(1)), "mail", on: store)
    apply(.write(.incr(1)), "news", on: store)
    store.writeAll(.clear(upTo: nil), now: 0) { _ in }  // CLEAR *: both
    #expect(Self.figures(store, "mail") == DayFigures(arrivals: 8, clears: 3, peak: 5))
    #expect(Self.figures(store, "news") == DayFigures(arrivals: 1, clears: 1, peak: 1))
  }

  @Test func settingsChangesAndRefusedChangesLeaveNoHistory() {
    let store = Self.store()
    apply(.write(.mute), "ci", on: store)
    apply(.configure(set: SettingsOverride(maxLabel: 9), reset: []), "ci", on: store)
    apply(.write(.incr(5)), "mail", on: store)
    #expect(throws: Store.MutationError.self) {
      try store.apply(.write(.incr(Limits.maxCount)), to: name("mail"), now: 0)
    }
    #expect(throws: Store.MutationError.self) {
      try store.apply(.write(.set(Limits.maxCount + 1)), to: name("mail"), now: 0)
    }
    #expect(store.history.names == [name("mail")])
    #expect(Self.figures(store, "mail") == DayFigures(arrivals: 5, clears: 0, peak: 5))
  }

  @Test func aNewDayStartsFromTheCountTheLastDayLeft() {
    let store = Self.store()
    apply(.write(.incr(8)), "mail", on: store)
    apply(.write(.decr(3)), "mail", on: store)
    store.today = Self.monday + 1
    apply(.write(.decr(1)), "mail", on: store)  // 5 → 4: the peak is the 5 held since midnight
    #expect(Self.figures(store, "mail") == DayFigures(arrivals: 8, clears: 0, peak: 8))
    #expect(Self.figures(store, "mail", on: Self.monday + 1) == DayFigures(arrivals: 0, clears: 0, peak: 5))
  }

  @Test func aPeriodHasEveryDayOldestFirstAndDaysWithoutChangesHoldTheCarriedCount() {
    let store = Self.store(on: Self.monday - 10)
    apply(.write(.incr(4)), "mail", on: store)  // outside the week: carried in
    store.today = Self.monday - 3
    apply(.write(.incr(2)), "mail", on: store)
    apply(.write(.set(0)), "mail", on: store)
    store.today = Self.monday - 1
    apply(.write(.incr(1)), "mail", on: store)
    let week = store.history.stats(of: name("mail"), period: .week, today: Self.monday)
    #expect(week.firstDay == Self.monday - 6)
    #expect(week.lastDay == Self.monday)
    #expect(
      week.days == [
        DayFigures(peak: 4), DayFigures(peak: 4), DayFigures(peak: 4),
        DayFigures(arrivals: 2, clears: 1, peak: 6),
        DayFigures(), DayFigures(arrivals: 1, peak: 1), DayFigures(peak: 1),
      ])
    #expect(week.totals == DayFigures(arrivals: 3, clears: 1, peak: 6))
  }

  @Test(arguments: [(StatsPeriod.day, 1), (.week, 7), (.month, 30), (.year, 365)])
  func periodsEndTodayAndCoverTheirDays(period: StatsPeriod, days: Int) {
    let stats = Self.store().history.stats(of: name("never"), period: period, today: Self.monday)
    #expect(stats.days.count == days)
    #expect(stats.lastDay == Self.monday)
    #expect(stats.totals == .zero)
  }

  @Test func theDayRollsOverAtTheDayTheCallerGives() {
    let store = Self.store()
    apply(.write(.incr(1)), "mail", on: store)
    store.today += 1
    apply(.write(.incr(1)), "mail", on: store)
    store.today += 1
    apply(.write(.incr(1)), "mail", on: store)
    #expect(store.history.days(of: name("mail")).map(\.day) == [Self.monday, Self.monday + 1, Self.monday + 2])
    #expect(store.history.days(of: name("mail")).map(\.figures.arrivals) == [1, 1, 1])
    #expect(store.history.days(of: name("mail")).map(\.figures.peak) == [1, 2, 3])
  }

  @Test func pruningKeeps400DaysAndTheCountCarriedIntoThem() {
    let start = Self.monday - 500
    let store = Self.store(on: start)
    apply(.write(.incr(1)), "gone", on: store)
    apply(.write(.set(0)), "gone", on: store)
    for offset in stride(from: 0, through: 500, by: 50) {
      store.today = start + offset
      apply(.write(.incr(1)), "mail", on: store)
    }
    store.pruneHistory()  // today is monday
    let kept = store.history.days(of: name("mail")).map(\.day)
    // Days within 400 of today, and the last older one, whose count (3) the kept days start from.
    #expect(kept == [start + 100] + stride(from: start + 150, through: Self.monday, by: 50))
    #expect(store.history.days(of: name("gone")).isEmpty)
    #expect(store.history.names == [name("mail")])
    let year = store.history.stats(of: name("mail"), period: .year, today: Self.monday)
    #expect(year.days[0].peak == 3)  // monday - 364 = start + 136: after the third increase
  }

  @Test func aForgottenDayStopsBeingCarriedWhenItEndedAtZero() {
    var history = History()
    history.record(at: .name(name("a")), from: 0, to: 3, arrivals: 3, on: 0)
    history.record(at: .name(name("a")), from: 3, to: 0, arrivals: 0, on: 1)
    history.prune(today: 1000)
    #expect(looseNames(history).isEmpty)
    history.record(at: .name(name("b")), from: 0, to: 3, arrivals: 3, on: 0)
    history.prune(today: 1000)
    #expect(history.days(at: .name(name("b"))).map(\.day) == [0], "a count still held is carried")
  }

  @Test func aChannelRecordingANewDayDropsItsOldDaysAtOnce() {
    var history = History()
    history.record(at: .name(name("a")), from: 0, to: 1, arrivals: 1, on: 0)
    history.record(at: .name(name("a")), from: 1, to: 0, arrivals: 0, on: 1)
    history.record(at: .name(name("a")), from: 0, to: 1, arrivals: 1, on: 1 + History.keptDays)
    #expect(history.days(at: .name(name("a"))).map(\.day) == [1 + History.keptDays])
  }

  @Test func historyStaysBoundedInNamesByDroppingTheQuietest() {
    var history = History(maxChannels: 100)
    for i in 0..<100 {
      history.record(at: .name(name("c\(i)")), from: 0, to: 1, arrivals: 1, on: i == 7 ? 5 : 10)
    }
    history.record(at: .name(name("new")), from: 0, to: 1, arrivals: 1, on: 11)
    #expect(looseNames(history).count == 100)
    #expect(!looseNames(history).contains(name("c7")))
    #expect(looseNames(history).contains(name("new")))
    #expect(History().maxChannels == 20_000 && History().maxEntries == 1_000_000)
  }

  @Test func historyStaysBoundedInDaysByDroppingTheQuietest() {
    var history = History(maxEntries: 10)
    for day in 0..<4 { history.record(at: .name(name("old")), from: day, to: day + 1, arrivals: 1, on: day) }
    for day in 0..<5 { history.record(at: .name(name("busy")), from: day, to: day + 1, arrivals: 1, on: 10 + day) }
    #expect(history.entryCount == 9)
    history.record(at: .name(name("busy")), from: 5, to: 6, arrivals: 1, on: 15)
    #expect(history.entryCount == 10)
    history.record(at: .name(name("busy")), from: 6, to: 7, arrivals: 1, on: 16)  // the 11th: the quietest name goes
    #expect(looseNames(history) == [name("busy")])
    #expect(history.entryCount == 7)
    for day in 17..<30 { history.record(at: .name(name("busy")), from: day, to: day + 1, arrivals: 1, on: day) }
    #expect(history.entryCount == 20, "a single name is never dropped for its own day")
    history.prune(today: 16 + History.keptDays)
    #expect(history.entryCount == 14, "days 17 to 29, and day 16, whose count (7) they start from")
  }

  /// Days kept by slot follow the slot as the store moves channels, go under the name when the
  /// channel is forgotten and back when it is made anew, and weigh in the bounds like the rest.
  @Test func daysKeptBySlotFollowTheirChannelAndCountTowardsTheBounds() {
    var history = History(maxChannels: 3)
    history.adopt(name("a"), at: 0)
    history.adopt(name("b"), at: 1)
    history.record(at: .slot(0), from: 0, to: 1, arrivals: 1, on: 5)
    history.record(at: .slot(1), from: 0, to: 2, arrivals: 2, on: 3)
    history.record(at: .name(name("gone")), from: 0, to: 1, arrivals: 1, on: 4)
    history.release(name("a"), at: 0)  // a forgotten: b, the last, moves to slot 0
    #expect(history.days(at: .slot(0)).map(\.endCount) == [2])
    #expect(history.days(at: .name(name("a"))).map(\.day) == [5])
    history.record(at: .name(name("new")), from: 0, to: 1, arrivals: 1, on: 6)  // a fourth name: b, the quietest, goes
    #expect(history.days(at: .slot(0)).isEmpty)
    #expect(looseNames(history) == [name("a"), name("gone"), name("new")])
    #expect(history.entryCount == 3)
    history.adopt(name("a"), at: 1)  // a made anew takes its days back
    #expect(history.days(at: .slot(1)).map(\.day) == [5])
    #expect(looseNames(history) == [name("gone"), name("new")])
    #expect(history.entryCount == 3)
  }

  @Test func restoringADayReplacesItWhole() {
    var history = History()
    history.record(at: .name(name("a")), from: 0, to: 4, arrivals: 4, on: 3)
    let entry = HistoryDay(day: 3, figures: DayFigures(arrivals: 9, clears: 2, peak: 7), endCount: 1)
    history.restore(at: .name(name("a")), entry)
    history.restore(at: .name(name("a")), HistoryDay(day: 1, figures: DayFigures(arrivals: 1, peak: 1), endCount: 1))
    #expect(
      history.days(at: .name(name("a"))) == [
        HistoryDay(day: 1, figures: DayFigures(arrivals: 1, peak: 1), endCount: 1), entry,
      ])
  }

  @Test func totalsSaturateInsteadOfTrapping() {
    var totals = DayFigures(arrivals: Int.max - 1, clears: 1, peak: 3)
    totals.add(DayFigures(arrivals: 5, clears: 1, peak: 2))
    #expect(totals == DayFigures(arrivals: Int.max, clears: 2, peak: 3))
  }
}

/// Day numbers and `YYYY-MM-DD`, both ways.
@Suite struct CivilDateTests {
  @Test(arguments: [
    (0, "1970-01-01"), (-1, "1969-12-31"), (59, "1970-03-01"), (11016, "2000-02-29"),
    (20787, "2026-11-30"), (20818, "2026-12-31"), (20819, "2027-01-01"), (-719_468, "0000-03-01"),
  ])
  func dayNumbersAndDatesAgree(day: Int, text: String) throws {
    #expect(CivilDate(dayNumber: day).description == text)
    #expect(try #require(CivilDate(text)).dayNumber == day)
  }

  @Test func everyDayOfFourHundredYearsRoundTrips() {
    for day in stride(from: -146_097, through: 146_097, by: 1) {
      let date = CivilDate(dayNumber: day)
      if date.dayNumber != day {
        Issue.record("day \(day) came back as \(date.dayNumber)")
        return
      }
    }
  }

  @Test(arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01", "2026-01-01x", "", "2026-01-+1"])
  func refusesWhatIsNotADate(text: String) {
    #expect(CivilDate(text) == nil)
  }
}

/// The names with history of a `History` kept apart from a store, where every name's days are
/// kept under the name, sorted.
private func looseNames(_ history: History) -> [ChannelName] {
  var names: [ChannelName] = []
  history.forEachPlace { place in
    if case .name(let name) = place { names.append(name) }
  }
  return names.sorted()
}
