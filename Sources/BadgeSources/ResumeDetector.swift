/// The three clocks an input comes with: monotonic and boot time in microseconds (read together
/// by the shell; boot time goes on during a suspend, monotonic does not), and the wall clock in
/// milliseconds for what users read (`changed=`, `retry_at=`).
public struct SourceTime: Equatable, Sendable {
  public var monotonic, boottime: UInt64
  public var wallMs: Int64

  public init(monotonic: UInt64, boottime: UInt64, wallMs: Int64) {
    (self.monotonic, self.boottime, self.wallMs) = (monotonic, boottime, wallMs)
  }
}

/// What told the program the machine resumed, or may have missed changes.
public enum ResumeCause: String, Equatable, Sendable {
  /// logind's `PrepareForSleep(false)` on the system bus.
  case logind
  /// `CLOCK_BOOTTIME − CLOCK_MONOTONIC` grew by a second or more since the last wakeup: the
  /// machine slept in between.
  case clockGap = "clock gap"
  /// SIGCONT: the program was stopped, and may have missed changes meanwhile.
  case continued = "SIGCONT"
}

/// Notices a resume from its causes and says when to recount everything: once per resume,
/// however many causes report it. Causes within `mergeWindow` of boot time of the last one
/// are the same resume (logind's signal and the clock gap come together; boot time, unlike
/// monotonic time, counts the sleep, so a second suspend soon after is still told apart).
public struct ResumeDetector: Sendable {
  /// How much the clocks' gap must grow to be a sleep: a second.
  public static let gapThreshold: UInt64 = 1_000_000
  /// Causes this close together (boot time) are one resume: two seconds.
  public static let mergeWindow: UInt64 = 2_000_000

  private var gap: UInt64
  private var lastResume: UInt64?

  public init(at time: SourceTime) { gap = time.boottime &- time.monotonic }

  /// A wakeup of the loop, with the clocks read on it: the resume it shows, if any.
  public mutating func wakeup(at time: SourceTime) -> ResumeCause? {
    let now = time.boottime &- time.monotonic
    defer { gap = now }
    guard now >= gap + ResumeDetector.gapThreshold else { return nil }
    return report(.clockGap, at: time)
  }

  /// A cause reported by the system (logind, SIGCONT): the resume to recount for, or `nil`
  /// when it is one already reported.
  public mutating func signalled(_ cause: ResumeCause, at time: SourceTime) -> ResumeCause? {
    report(cause, at: time)
  }

  private mutating func report(_ cause: ResumeCause, at time: SourceTime) -> ResumeCause? {
    if let lastResume, time.boottime < lastResume + ResumeDetector.mergeWindow { return nil }
    lastResume = time.boottime
    return cause
  }
}
