import BadgeSystem
import Glibc
import Testing

/// Timers, re-armed and disarmed, and the loop's clock.
@Suite struct EventLoopTimerTests {
  @Test func aTimerFiresAtItsDeadline() throws {
    let loop = try EventLoop()
    let deadline = Environment.monotonicMicroseconds + 20_000
    var loopTime: UInt64 = 0
    var clockTime: UInt64 = 0
    let timer = try loop.addTimer(at: deadline) {
      loopTime = loop.now
      clockTime = Environment.monotonicMicroseconds
      loop.exit(code: 1)
    }
    defer { timer.cancel() }
    #expect(try loop.runGuarded() == 1)
    #expect(loopTime >= deadline)
    #expect(clockTime >= deadline)
    #expect(loopTime < deadline + 1_000_000)
  }

  @Test func theLoopRunsInStepsAsOftenAsAsked() throws {
    let loop = try EventLoop()
    var fired = 0
    let timer = try loop.addTimer(at: Environment.monotonicMicroseconds + 10_000) { fired += 1 }
    defer { timer.cancel() }
    // Nothing is due yet: a step waits its timeout and dispatches nothing.
    #expect(try loop.runOnce(timeout: 0) == false)
    #expect(fired == 0)
    #expect(try loop.runOnce(timeout: 1_000_000) == true)
    #expect(fired == 1)
    // Unlike `run()` after `exit`, steps go on.
    timer.schedule(at: Environment.monotonicMicroseconds + 1_000)
    #expect(try loop.runOnce(timeout: 1_000_000) == true)
    #expect(fired == 2)
  }

  @Test func armFollowsADeadlineAndForgetsItOnceFired() throws {
    let loop = try EventLoop()
    var seenInHandler: UInt64? = 1
    var timer: TimerSource?
    timer = try loop.addTimer {
      seenInHandler = timer?.deadline
      loop.exit(code: 3)
    }
    #expect(timer?.deadline == nil)
    let deadline = Environment.monotonicMicroseconds + 5_000
    timer?.arm(at: deadline)
    #expect(timer?.deadline == deadline)
    timer?.arm(at: nil)
    #expect(timer?.deadline == nil)
    timer?.arm(at: deadline)
    #expect(try loop.runGuarded() == 3)
    // Fired means disarmed: the same deadline arms it again.
    #expect(seenInHandler == nil)
    #expect(timer?.deadline == nil)
    timer = nil
  }

  @Test func aTimerCanBeReArmedFromItsHandler() throws {
    let loop = try EventLoop()
    var fired: [UInt64] = []
    var timer: TimerSource?
    timer = try loop.addTimer(at: Environment.monotonicMicroseconds + 5_000) {
      fired.append(loop.now)
      if fired.count == 1 {
        timer?.schedule(at: loop.now + 15_000)
      } else {
        loop.exit(code: 2)
      }
    }
    #expect(try loop.runGuarded() == 2)
    #expect(fired.count == 2)
    if fired.count == 2 { #expect(fired[1] - fired[0] >= 15_000) }
    timer = nil
  }

  @Test func aDisarmedTimerWaitsForItsNextSchedule() throws {
    let loop = try EventLoop()
    var order: [String] = []
    let first = try loop.addTimer(at: Environment.monotonicMicroseconds + 5_000) {
      order.append("first")
      loop.exit(code: 3)
    }
    first.disarm()
    let second = try loop.addTimer(at: Environment.monotonicMicroseconds + 30_000) {
      order.append("second")
      first.schedule(at: loop.now + 5_000)
    }
    defer {
      first.cancel()
      second.cancel()
    }
    #expect(try loop.runGuarded() == 3)
    #expect(order == ["second", "first"])
  }

  @Test func aTimerWithoutADeadlineNeverFiresUntilScheduled() throws {
    // How the daemon creates its pulse timer: disarmed until the first pulse.
    let loop = try EventLoop()
    var calls = 0
    let timer = try loop.addTimer {
      calls += 1
      loop.exit(code: 4)
    }
    let arm = try loop.addTimer(at: Environment.monotonicMicroseconds + 20_000) {
      #expect(calls == 0)
      timer.schedule(at: loop.now)
    }
    defer {
      timer.cancel()
      arm.cancel()
    }
    #expect(try loop.runGuarded() == 4)
    #expect(calls == 1)
  }

  @Test func aCancelledTimerDoesNotFire() throws {
    let loop = try EventLoop()
    var calls = 0
    let timer = try loop.addTimer(at: Environment.monotonicMicroseconds + 5_000) { calls += 1 }
    timer.cancel()
    timer.schedule(at: 0)  // a cancelled timer ignores this
    let stop = try loop.exit(code: 5, afterMs: 30)
    defer { stop.cancel() }
    #expect(try loop.runGuarded() == 5)
    #expect(calls == 0)
  }

  @Test func nowIsTheMonotonicClockInMicroseconds() throws {
    let loop = try EventLoop()
    let before = Environment.monotonicMicroseconds
    let idle = loop.now  // before the first turn: the clock itself
    #expect(idle >= before)
    #expect(idle - before < 1_000_000)
    var seen: [UInt64] = []
    let timer = try loop.addTimer(at: before + 10_000) {
      seen = [loop.now, loop.now]
      loop.exit(code: 6)
    }
    defer { timer.cancel() }
    #expect(try loop.runGuarded() == 6)
    #expect(seen.count == 2 && seen[0] == seen[1], "one instant for the whole turn")
    #expect(seen.first.map { $0 >= before + 10_000 } == true)
  }
}
