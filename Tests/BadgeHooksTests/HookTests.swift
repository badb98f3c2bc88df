import BadgeCore
import BadgeHooks
import TestSupport
import Testing

/// Hook command lines, their events, and when runs may start.
@Suite struct HookCommandTests {
  static let cases: [(String, [String])] = [
    ("paplay /usr/share/sounds/bell.oga", ["paplay", "/usr/share/sounds/bell.oga"]),
    ("  notify-send\t 'New mail'  ", ["notify-send", "New mail"]),
    (#"notify-send "Mail: \"urgent\"" b\ c"#, ["notify-send", #"Mail: "urgent""#, "b c"]),
    (#"sh -c 'echo "$BADGED_COUNT" >> /tmp/x'"#, ["sh", "-c", #"echo "$BADGED_COUNT" >> /tmp/x"#]),
    (#"printf "a\nb""#, ["printf", #"a\nb"#]),
    (#"a ''"#, ["a", ""]),
    (#"a'b'"c""#, ["abc"]),
    ("$HOME/x *.txt ~", ["$HOME/x", "*.txt", "~"]),
    ("", []),
  ]

  @Test(arguments: cases)
  func splitsIntoWords(_ line: String, _ words: [String]) throws {
    #expect(try HookCommand(line).words == words)
  }

  @Test(arguments: [
    ("notify-send 'open", "a ' quote is not closed"),
    (#"notify-send "open"#, #"a " quote is not closed"#),
    (#"x \"#, "it ends in a lone backslash"),
  ])
  func refusesBrokenLines(_ line: String, _ reason: String) {
    #expect(throws: HookCommand.SplitError(reason: reason)) { try HookCommand(line) }
  }

  @Test func eventsOfACountChange() {
    #expect(HookEvent.events(from: 0, to: 2) == [.increase])
    #expect(HookEvent.events(from: 5, to: 2) == [.decrease])
    #expect(HookEvent.events(from: 5, to: 0) == [.decrease, .zero])
    #expect(HookEvent.events(from: 3, to: 3) == [])
    #expect(HookEvent.allCases.map(\.key) == ["on_increase", "on_decrease", "on_zero", "on_pulse_end"])
  }

}

/// When hook runs start: one per channel and event at a time, coalesced, rate-limited.
@Suite struct HookSchedulerTests {
  var clock = ManualClock()
  var scheduler = HookScheduler(intervalMs: 1000, maxRunning: 8)

  func run(_ channel: String = "mail", _ event: HookEvent = .increase, count: Int, previous: Int) -> HookRun {
    HookRun(channel: name(channel), event: event, count: count, previous: previous, label: String(count))
  }

  @Test mutating func theFirstRequestStartsAtOnce() {
    #expect(scheduler.request(run(count: 1, previous: 0), now: clock.now) == run(count: 1, previous: 0))
    #expect(scheduler.isRunning(HookKey(channel: name("mail"), event: .increase)))
  }

  @Test mutating func changesDuringARunCoalesceIntoOneMoreRun() {
    _ = scheduler.request(run(count: 1, previous: 0), now: clock.now)
    for n in 2...10_000 {
      #expect(scheduler.request(run(count: n, previous: n - 1), now: clock.now) == nil)
    }
    #expect(scheduler.pendingCount == 1)
    clock.advance(ms: 5)
    scheduler.finished(HookKey(channel: name("mail"), event: .increase))
    #expect(scheduler.due(now: clock.now).isEmpty, "the interval has not passed")
    #expect(scheduler.nextDeadline == clock.now - 5000 + 1_000_000)
    clock.advance(ms: 995)
    let started = scheduler.due(now: clock.now)
    #expect(
      started == [run(count: 10_000, previous: 1)], "the latest count, the count before the first coalesced change")
    #expect(started.first?.delta == 9999)
    #expect(scheduler.pendingCount == 0 && scheduler.nextDeadline == nil)
  }

  @Test mutating func aRunWaitsForTheOneUnderWayEvenAfterTheInterval() {
    _ = scheduler.request(run(count: 1, previous: 0), now: clock.now)
    clock.advance(ms: 5000)
    #expect(scheduler.request(run(count: 2, previous: 1), now: clock.now) == nil)
    #expect(scheduler.due(now: clock.now).isEmpty, "still running")
    #expect(scheduler.nextDeadline == nil, "its start waits for the end, not for a time")
    scheduler.finished(HookKey(channel: name("mail"), event: .increase))
    #expect(scheduler.due(now: clock.now) == [run(count: 2, previous: 1)])
  }

  @Test mutating func oneStartPerChannelPerInterval() {
    #expect(scheduler.request(run(count: 1, previous: 0), now: clock.now) != nil)
    scheduler.finished(HookKey(channel: name("mail"), event: .increase))
    clock.advance(ms: 10)
    #expect(scheduler.request(run("mail", .decrease, count: 0, previous: 1), now: clock.now) == nil)
    #expect(scheduler.request(run("mail", .zero, count: 0, previous: 1), now: clock.now) == nil)
    #expect(
      scheduler.request(run("chat", count: 1, previous: 0), now: clock.now) != nil, "another channel has its own limit")
    clock.advance(ms: 990)
    #expect(scheduler.due(now: clock.now).map(\.event) == [.decrease], "one start per interval")
    clock.advance(ms: 999)
    #expect(scheduler.due(now: clock.now).isEmpty)
    clock.advance(ms: 1)
    #expect(scheduler.due(now: clock.now).map(\.event) == [.zero])
  }

  @Test mutating func aZeroIntervalOnlyWaitsForTheRun() {
    var scheduler = HookScheduler(intervalMs: 0, maxRunning: 8)
    #expect(scheduler.request(run(count: 1, previous: 0), now: clock.now) != nil)
    #expect(scheduler.request(run(count: 2, previous: 1), now: clock.now) == nil)
    scheduler.finished(HookKey(channel: name("mail"), event: .increase))
    #expect(scheduler.due(now: clock.now) == [run(count: 2, previous: 1)])
  }

  @Test mutating func droppedRunsNeverStart() {
    _ = scheduler.request(run(count: 1, previous: 0), now: clock.now)
    _ = scheduler.request(run(count: 2, previous: 1), now: clock.now)
    scheduler.dropPending()
    scheduler.finished(HookKey(channel: name("mail"), event: .increase))
    clock.advance(ms: 2000)
    #expect(scheduler.due(now: clock.now).isEmpty)
  }

  func key(_ channel: String, _ event: HookEvent = .increase) -> HookKey {
    HookKey(channel: name(channel), event: event)
  }

  @Test mutating func atMostMaxRunningAtOnceTheOthersStartAsRunsEnd() {
    var scheduler = HookScheduler(intervalMs: 0, maxRunning: 2)
    #expect(scheduler.request(run("a", count: 1, previous: 0), now: clock.now) != nil)
    #expect(scheduler.request(run("b", count: 1, previous: 0), now: clock.now) != nil)
    #expect(scheduler.request(run("c", count: 1, previous: 0), now: clock.now) == nil)
    #expect(scheduler.request(run("d", count: 1, previous: 0), now: clock.now) == nil)
    #expect(scheduler.runningCount == 2 && scheduler.pendingCount == 2)
    #expect(scheduler.due(now: clock.now).isEmpty, "no place is free")
    #expect(scheduler.nextDeadline == nil, "waiting for a place is waiting for an end, not a time")
    scheduler.finished(key("a"))
    #expect(scheduler.due(now: clock.now).map(\.channel) == [name("c")])
    scheduler.finished(key("b"))
    scheduler.finished(key("c"))
    #expect(scheduler.due(now: clock.now).map(\.channel) == [name("d")], "one left")
    #expect(scheduler.runningCount == 1 && scheduler.pendingCount == 0)
  }

  @Test mutating func waitingRunsStartInTheOrderTheyBecameFreeAndAMergeKeepsItsPlace() {
    var scheduler = HookScheduler(intervalMs: 0, maxRunning: 1)
    _ = scheduler.request(run("a", count: 1, previous: 0), now: clock.now)
    _ = scheduler.request(run("b", count: 1, previous: 0), now: clock.now)
    _ = scheduler.request(run("c", count: 1, previous: 0), now: clock.now)
    // a changes again while it runs: that run waits for a's end, behind b and c.
    _ = scheduler.request(run("a", count: 2, previous: 1), now: clock.now)
    // b changes while it waits: merged, in its place.
    _ = scheduler.request(run("b", count: 5, previous: 1), now: clock.now)
    var order: [HookRun] = []
    for running in ["a", "b", "c", "a"] {
      scheduler.finished(key(running))
      order += scheduler.due(now: clock.now)
    }
    #expect(
      order == [run("b", count: 5, previous: 0), run("c", count: 1, previous: 0), run("a", count: 2, previous: 1)])
  }

  @Test mutating func aLowerBoundStartsNothingUntilRunsUnderWayFallBelowIt() {
    var scheduler = HookScheduler(intervalMs: 0, maxRunning: 3)
    for channel in ["a", "b", "c", "d"] { _ = scheduler.request(run(channel, count: 1, previous: 0), now: clock.now) }
    scheduler.maxRunning = 1
    scheduler.finished(key("a"))
    #expect(scheduler.due(now: clock.now).isEmpty, "b and c still run")
    scheduler.finished(key("b"))
    #expect(scheduler.due(now: clock.now).isEmpty, "c still runs")
    scheduler.finished(key("c"))
    #expect(scheduler.due(now: clock.now).map(\.channel) == [name("d")])
  }

  @Test mutating func aRunWaitingForAPlaceStillKeepsItsChannelsInterval() {
    var scheduler = HookScheduler(intervalMs: 1000, maxRunning: 1)
    _ = scheduler.request(run("a", count: 1, previous: 0), now: clock.now)
    _ = scheduler.request(run("b", count: 1, previous: 0), now: clock.now)
    scheduler.finished(key("a"))
    #expect(scheduler.due(now: clock.now).map(\.channel) == [name("b")])
    // a's decrease comes 10 ms after a started: it waits for a's interval, then for a place.
    clock.advance(ms: 10)
    #expect(scheduler.request(run("a", .decrease, count: 0, previous: 1), now: clock.now) == nil)
    #expect(scheduler.nextDeadline == clock.now - 10_000 + 1_000_000)
    clock.advance(ms: 990)
    #expect(scheduler.due(now: clock.now).isEmpty, "b still runs")
    #expect(scheduler.nextDeadline == nil)
    scheduler.finished(key("b"))
    #expect(scheduler.due(now: clock.now).map(\.event) == [.decrease])
  }

  /// 10,000 changes over 1,000 channels, round robin, with room for 16 runs: never more than
  /// 16 run at once, the earliest waiting runs start first, and every channel's last change
  /// runs (coalesced).
  @Test mutating func aFloodStaysWithinTheBoundAndEveryChannelsLastChangeRuns() {
    var scheduler = HookScheduler(intervalMs: 0, maxRunning: 16)
    var running: [HookRun] = []
    var lastRun: [ChannelName: Int] = [:]
    var most = 0
    func started(_ runs: [HookRun]) {
      running += runs
      for run in runs { lastRun[run.channel] = run.count }
      most = max(most, scheduler.runningCount)
    }
    for n in 0..<10_000 {
      let channel = "c\(n % 1000)"
      let count = n / 1000 + 1
      if let run = scheduler.request(run(channel, count: count, previous: count - 1), now: clock.now) { started([run]) }
      if n % 7 == 0, !running.isEmpty {  // runs end now and then during the flood
        scheduler.finished(running.removeFirst().key)
        started(scheduler.due(now: clock.now))
      }
    }
    while !running.isEmpty {
      scheduler.finished(running.removeFirst().key)
      started(scheduler.due(now: clock.now))
    }
    #expect(most == 16)
    #expect(scheduler.pendingCount == 0)
    #expect(lastRun.count == 1000 && lastRun.values.allSatisfy { $0 == 10 }, "every channel ran with its last count")
  }
}
