import CLinux

/// Gives the heap's free memory back to the kernel once a load has gone.
///
/// glibc keeps what the process frees for reuse and hands back on its own only the top of the
/// heap; the output buffers of many connections, freed after a burst, sit between live objects,
/// so without this the daemon's RSS stayed near its peak long after a burst to many watchers
/// was over (BENCHMARKS.md, "Memory"). The daemon reports the buffer bytes it lets go of
/// (`released`); once `threshold` bytes have been released, a one-shot timer runs
/// `malloc_trim(0)` `delay` later, which returns every free page of the heap. During a long
/// burst that is once per `delay` at most, and an idle daemon has no timer armed.
public final class HeapTrimmer {
  /// Released bytes that make a trim worth its walk over the heap.
  public let threshold: Int
  /// How long after the release that reached `threshold` the trim runs, so that a burst's
  /// releases are trimmed together.
  public let delay: UInt64
  private let loop: EventLoop
  private var timer: TimerSource?
  /// Released since the last trim.
  public private(set) var pending = 0
  /// How many trims ran (for the log and tests).
  public private(set) var trims = 0
  /// Called after each trim.
  public var trimmed: () -> Void = {}

  public init(loop: EventLoop, threshold: Int = 1 << 20, delay: UInt64 = 1_000_000) throws(SystemError) {
    self.loop = loop
    self.threshold = threshold
    self.delay = delay
    timer = try loop.addTimer(accuracy: 100_000) { [unowned self] in trim() }
  }

  /// Whether a trim is due (its timer armed).
  public var isScheduled: Bool { timer?.deadline != nil }

  /// `bytes` of buffers were freed.
  public func released(_ bytes: Int) {
    pending += bytes
    guard pending >= threshold, timer?.deadline == nil else { return }
    timer?.schedule(at: loop.now + delay)
  }

  private func trim() {
    pending = 0
    _ = badged_malloc_trim()
    trims += 1
    trimmed()
  }
}
