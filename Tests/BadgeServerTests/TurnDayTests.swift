import BadgeConfig
import BadgeCore
import Testing

@testable import BadgeServer

/// The day history counts on belongs to the turn: read from the clock once, by whatever begins
/// the turn, for every source of changes alike (a request, a bus bridge, a timer, a reload).
@Suite struct TurnDayTests {
  let turns = Turns()
  static let monday = CivilDate(year: 2026, month: 11, day: 30).dayNumber

  init() {
    turns.clock.day = Self.monday
  }

  /// `STATS week` of every channel, as a client reads it.
  func week() -> [String] {
    let client = turns.peer()
    turns.send(client, "STATS week")
    turns.endTurn()
    return turns.take(client).filter { !$0.hasSuffix("arrivals=0 clears=0 peak=0") || $0.hasPrefix("STATS") }
  }

  /// A request's change late on Monday, then, past midnight, a change a bus bridge makes (an
  /// app's LauncherEntry count) before any request is read: each counts on its own day.
  @Test func aBusChangeAfterMidnightCountsOnTheNewDayWithoutARequestBetween() throws {
    let client = turns.peer()
    turns.send(client, "INCR mail 2")
    turns.endTurn()
    turns.clock.day = Self.monday + 1  // midnight passes; no request is read
    turns.now += 120_000_000
    try turns.core.apply(.write(.set(5)), to: name("app:chat"))  // the LauncherEntry bridge's path
    turns.endTurn()
    #expect(
      week() == [
        "STATS app:chat period=week from=2026-11-25 to=2026-12-01 arrivals=5 clears=0 peak=5",
        "DAY app:chat 2026-12-01 arrivals=5 clears=0 peak=5",
        "STATS mail period=week from=2026-11-25 to=2026-12-01 arrivals=2 clears=0 peak=2",
        "DAY mail 2026-11-30 arrivals=2 clears=0 peak=2",
        "DAY mail 2026-12-01 arrivals=0 clears=0 peak=2",
        "OK",
      ])
  }

  /// Whatever begins a turn puts the turn's day in force before it changes anything: a
  /// request, a bus bridge's change or pulse, the pulse and do-not-disturb timers, a reload, a
  /// repair.
  @Test(arguments: ["request", "bridge change", "bridge pulse", "pulse timer", "dnd timer", "reload", "repair"])
  func everySourceBeginsTheTurnOnTheDayOfTheClock(_ source: String) throws {
    turns.send(turns.peer(), "PING")
    turns.endTurn()
    #expect(turns.store.today == Self.monday)
    turns.clock.day = Self.monday + 3
    switch source {
    case "request": turns.send(turns.peer(), "GET mail")
    case "bridge change": try turns.core.apply(.write(.incr(1)), to: name("app:chat"))
    case "bridge pulse": turns.core.pulse(name("app:chat"))
    case "pulse timer": turns.core.expirePulses()
    case "dnd timer": turns.core.expireDND()
    case "reload": turns.core.reconfigure(DaemonConfig())
    default: turns.core.tryRepair()
    }
    #expect(turns.store.today == Self.monday + 3)
    turns.endTurn()
  }

  /// However many requests and changes a turn carries, it reads the day once; the next turn
  /// reads it again.
  @Test func aTurnReadsTheDayOnceWhateverItCarries() throws {
    let before = turns.clock.dayReads
    let client = turns.peer()
    turns.send(client, "INCR mail", "INCR chat", "GET mail", "STATS")
    try turns.core.apply(.write(.incr(1)), to: name("app:x"))
    turns.core.expirePulses()
    #expect(turns.clock.dayReads == before + 1)
    turns.endTurn()
    #expect(turns.clock.dayReads == before + 1, "ending the turn reads nothing new")
    turns.send(client, "INCR mail")
    #expect(turns.clock.dayReads == before + 2)
  }

  /// The turn's instant, like its day, is read once: a reply and the event of the same change
  /// are one line (the event's bytes, with `STATE` in front), whenever in the turn the clock is
  /// looked at.
  @Test func aChangesReplyAndEventShareOneLine() {
    let watcher = turns.watcher()
    let client = turns.peer()
    turns.send(client, "INCR mail")
    turns.now += 400_000  // the clock moves on during the turn; the turn's instant does not
    turns.send(client, "PULSE mail 5000")
    turns.endTurn()
    let replies = turns.take(client).filter { $0 != "OK" }
    let events = turns.take(watcher)
    #expect(
      events == [
        "EVENT mail count=1 label=1 dot=0 pulse=3000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1",
        "EVENT mail count=1 label=1 dot=0 pulse=5000 muted=0 seq=1 badge=count dnd=off unseen=1 total=1",
      ])
    #expect(replies == events.map { "STATE" + $0.dropFirst(5) })
  }
}
