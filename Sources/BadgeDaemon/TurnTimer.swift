import BadgeSystem

/// The cost of the loop's turns, timed at the debug log level only: every other client waits
/// for the turn under way, so the longest turn is what one request can cost the others.
///
/// A turn's cost is the loop thread's CPU time from the end of the turn before to the end of
/// this one (everything the loop did in between belongs to it: reading, carrying out, the
/// commit, sending); it does not count the time the thread waited for input or for the
/// machine's other work, so it is the same on a loaded machine. The time from the turn's start
/// (its first request, signal or timer; for a turn that only sent, the start of its end) to its
/// end, what a client waited, is reported beside it. The start's turn, which loads the state
/// folder, is not counted.
struct TurnTimer {
  /// The loop thread's CPU time when the last turn ended; `nil` until the start's turn ended.
  private var lastEnd: UInt64?
  /// The most CPU time a turn took so far.
  private var longest: UInt64 = 0

  /// A turn that began at `began` (monotonic microseconds) has ended: its CPU time and its time
  /// from start to end, when it took more CPU time than every turn before it.
  mutating func ended(began: UInt64) -> (cpu: UInt64, wall: UInt64)? {
    let now = Environment.threadCPUMicroseconds
    defer { lastEnd = now }
    guard let lastEnd, now - lastEnd > longest else { return nil }
    longest = now - lastEnd
    return (longest, Environment.monotonicMicroseconds &- began)
  }
}
