import Glibc

/// The two clocks a resume from suspend shows between: `CLOCK_MONOTONIC` stops while the
/// machine sleeps, `CLOCK_BOOTTIME` does not. Their gap is the time spent suspended since boot,
/// so a gap that grew between two readings says the machine slept in between.
public struct BootClock: Equatable, Sendable {
  /// `CLOCK_MONOTONIC`, in microseconds (the event loop's clock).
  public let monotonic: UInt64
  /// `CLOCK_BOOTTIME`, in microseconds.
  public let boottime: UInt64

  public init(monotonic: UInt64, boottime: UInt64) {
    self.monotonic = monotonic
    self.boottime = boottime
  }

  /// Both clocks, read one right after the other (boottime second, so the gap is never
  /// below the true one by more than the read takes).
  public static func read() -> BootClock {
    let monotonic = microseconds(CLOCK_MONOTONIC)
    return BootClock(monotonic: monotonic, boottime: microseconds(CLOCK_BOOTTIME))
  }

  /// `CLOCK_BOOTTIME` alone, in microseconds: the clock of `EventLoop.addTimer(clock: .boottime)`.
  public static var boottimeMicroseconds: UInt64 { microseconds(CLOCK_BOOTTIME) }

  /// The time spent suspended since boot, as of this reading.
  public var suspended: UInt64 { boottime &- monotonic }

  /// The time spent suspended between `earlier` and this reading (0 when the gap shrank by the
  /// jitter of two reads).
  public func suspended(since earlier: BootClock) -> UInt64 {
    suspended > earlier.suspended ? suspended - earlier.suspended : 0
  }

  private static func microseconds(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
  }
}
