import CLinux

/// Gives the heap's free memory back to the kernel once a load has gone.
///
/// glibc keeps what the process frees for reuse and hands back on its own only the top of the
/// heap; the output buffers of many connections, freed after a burst, sit between live objects,
/// so without this the daemon's RSS stayed near its peak long after a burst to many watchers
/// was over (BENCHMARKS.md, "Memory"). The daemon reports the buffer bytes it lets go of
/// (`released`); once `threshold` bytes have been released, a trim is scheduled `delay` later
/// (`schedule`: a deadline of the daemon's server), which runs `malloc_trim(0)` and returns
/// every free page of the heap. During a long burst that is once per `delay` at most, and an
/// idle daemon has no trim scheduled.
public final class HeapTrimmer {
  /// Released bytes that make a trim worth its walk over the heap.
  public let threshold: Int
  /// How long after the release that reached `threshold` the trim runs, so that a burst's
  /// releases are trimmed together.
  public let delay: UInt64
  /// Asks for `trim()` to run `delay` microseconds from now; set by the trimmer's owner.
  public var schedule: (_ delay: UInt64) -> Void = { _ in }
  /// Released since the last trim.
  public private(set) var pending = 0
  /// Whether a trim is due (scheduled, and not run yet).
  public private(set) var isScheduled = false
  /// How many trims ran (for the log and tests).
  public private(set) var trims = 0
  /// Called after each trim.
  public var trimmed: () -> Void = {}

  public init(threshold: Int = 1 << 20, delay: UInt64 = 1_000_000) {
    self.threshold = threshold
    self.delay = delay
  }

  /// `bytes` of buffers were freed.
  public func released(_ bytes: Int) {
    pending += bytes
    guard pending >= threshold, !isScheduled else { return }
    isScheduled = true
    schedule(delay)
  }

  /// Gives the free memory back (its scheduled time came).
  public func trim() {
    pending = 0
    isScheduled = false
    _ = badged_malloc_trim()
    trims += 1
    trimmed()
  }
}
