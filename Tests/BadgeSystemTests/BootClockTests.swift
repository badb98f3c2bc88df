import BadgeSystem
import Glibc
import Testing

/// The two clocks of a resume, and timers on the one that counts sleep.
@Suite struct BootClockTests {
  @Test func bothClocksAreReadTogetherAndBoottimeIsNeverBehind() {
    let before = Environment.monotonicMicroseconds
    let first = BootClock.read()
    let second = BootClock.read()
    let after = Environment.monotonicMicroseconds
    #expect(before <= first.monotonic && first.monotonic <= second.monotonic && second.monotonic <= after)
    #expect(first.boottime >= first.monotonic)
    #expect(second.boottime >= first.boottime)
    // No suspend between two reads a few microseconds apart: the gap moved by less than 1 ms.
    #expect(second.suspended(since: first) < 1000)
  }

  @Test func theTimeSuspendedIsTheGrowthOfTheGap() {
    let earlier = BootClock(monotonic: 10_000_000, boottime: 12_000_000)
    let later = BootClock(monotonic: 11_000_000, boottime: 18_000_000)
    #expect(earlier.suspended == 2_000_000)
    #expect(later.suspended(since: earlier) == 5_000_000)
    #expect(earlier.suspended(since: later) == 0)
  }

  @Test func aTimerOnBoottimeFiresOnceAtItsDeadline() throws {
    let loop = try EventLoop()
    let deadline = BootClock.boottimeMicroseconds + 20_000
    var fired: [UInt64] = []
    let timer = try loop.addTimer(at: deadline, clock: .boottime) {
      fired.append(BootClock.boottimeMicroseconds)
      loop.exit(code: 4)
    }
    defer { timer.cancel() }
    #expect(try loop.runGuarded() == 4)
    #expect(fired.count == 1)
    #expect(fired.allSatisfy { $0 >= deadline })
    #expect(timer.deadline == nil)
  }
}
