/// The delays between attempts to reach something that does not answer (the broker, the
/// daemon): doubling from `initial` to `maximum`, each drawn at random from its upper half
/// ("equal jitter"), so that machines cut off together do not all come back in the same
/// instant, and never shorter than half the nominal delay.
public struct Backoff: Sendable {
  /// Microseconds.
  public let initial: UInt64
  public let maximum: UInt64
  /// Failed attempts since the last success.
  public private(set) var failures = 0

  public init(initial: UInt64, maximum: UInt64) {
    precondition(initial > 0 && initial <= maximum)
    self.initial = initial
    self.maximum = maximum
  }

  /// The nominal delay after the current number of failures.
  public var nominal: UInt64 {
    var delay = initial
    for _ in 0..<min(failures, 62) {
      guard delay < maximum else { break }
      delay *= 2
    }
    return min(delay, maximum)
  }

  /// Records a failure; the delay before the next attempt.
  public mutating func failed(using random: inout some RandomNumberGenerator) -> UInt64 {
    let base = nominal
    failures += 1
    // A fraction from the top 53 bits, rather than `random(in:)`, whose rejection sampling
    // never ends with a generator that keeps giving the same word.
    let fraction = Double(random.next() >> 11) / Double(UInt64(1) << 53)
    return base / 2 + UInt64(Double(base - base / 2) * fraction)
  }

  /// Records a success: the next failure waits `initial` again.
  public mutating func succeeded() { failures = 0 }
}
