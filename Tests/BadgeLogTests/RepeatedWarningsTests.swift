import BadgeLog
import Testing

/// Log lines kept in memory, with their levels.
private final class KeptLines: LogSink, @unchecked Sendable {
  private(set) var lines: [(level: Logger.Level, message: String)] = []

  func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String) {
    lines.append((level, message))
  }
}

@Suite struct RepeatedWarningsTests {
  private let kept = KeptLines()
  private let full = RepeatedWarnings.Reason("bus: apps past [bridge] max_apps")
  private let busy = RepeatedWarnings.Reason("socket: clients past [limits] max_clients")

  private func warnings(level: Logger.Level = .info) -> RepeatedWarnings {
    RepeatedWarnings(logger: Logger(level: level, sink: kept), interval: 10_000_000)
  }

  @Test func theFirstGoesOutAndTheRestOfTheIntervalIsCounted() {
    let log = warnings()
    #expect(log.log(.warning, full, now: 1_000_000, "app 1 refused"))
    for i in 2...1000 { #expect(!log.log(.warning, full, now: 1_000_000 + UInt64(i), "app \(i) refused")) }
    #expect(kept.lines.map(\.message) == ["app 1 refused"])
    // The first after the interval carries the count of those dropped.
    #expect(log.log(.warning, full, now: 11_000_000, "app 1001 refused"))
    #expect(kept.lines.map(\.message) == ["app 1 refused", "app 1001 refused (999 more like this in the last 10 s)"])
  }

  @Test func eachReasonHasItsOwnInterval() {
    let log = warnings()
    log.log(.warning, full, now: 0, "a")
    log.log(.warning, busy, now: 1, "b")
    log.log(.warning, full, now: 2, "c")
    log.log(.warning, busy, now: 3, "d")
    #expect(kept.lines.map(\.message) == ["a", "b"])
  }

  @Test func flushReportsACountWhoseSourceWentQuietOnceItsIntervalPassed() {
    let log = warnings()
    #expect(log.nextFlush == nil)
    log.log(.warning, full, now: 5_000_000, "a")
    #expect(log.nextFlush == nil)  // nothing dropped: nothing to report
    log.log(.error, full, now: 6_000_000, "b")
    log.log(.warning, full, now: 7_000_000, "c")
    #expect(log.nextFlush == 15_000_000)
    log.flush(now: 14_999_999)
    #expect(kept.lines.count == 1)
    log.flush(now: 15_000_000)
    #expect(kept.lines.count == 2)
    // Reported at the most severe level dropped.
    #expect(kept.lines[1].level == .error)
    #expect(kept.lines[1].message == "bus: apps past [bridge] max_apps: 2 more like this in the last 10 s.")
    #expect(log.nextFlush == nil)
    #expect(log.reasonCount == 0)
    // A new warning after the flush starts afresh, without a count.
    log.log(.warning, full, now: 15_000_001, "d")
    #expect(kept.lines.last?.message == "d")
  }

  @Test func flushForgetsReasonsWhoseIntervalPassedSoTheTableStaysSmall() {
    let log = warnings()
    for i in 0..<100 { log.log(.warning, RepeatedWarnings.Reason("reason \(i)"), now: UInt64(i), "x") }
    #expect(log.reasonCount == 100)
    log.flush(now: 10_000_050)
    #expect(log.reasonCount == 49)
    log.flush(now: 10_000_100)
    #expect(log.reasonCount == 0)
    #expect(kept.lines.count == 100)
  }

  @Test func belowTheLoggersLevelNothingIsCountedOrBuilt() {
    let log = warnings(level: .error)
    var built = 0
    let message = { () -> String in
      built += 1
      return "x"
    }
    // Called outside #expect, which evaluates the arguments it shows.
    let first = log.log(.warning, full, now: 0, message())
    let second = log.log(.warning, full, now: 1, message())
    #expect(!first && !second)
    #expect(built == 0)
    #expect(log.nextFlush == nil)
    #expect(kept.lines.isEmpty)
  }
}
