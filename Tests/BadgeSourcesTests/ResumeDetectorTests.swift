import BadgeSources
import Testing

/// `ResumeDetector`: the clocks' gap, logind and SIGCONT, merged into one recount a resume.
@Suite struct ResumeDetectorTests {
  /// A time `awake` µs into monotonic time, having slept `slept` µs in all.
  static func at(_ awake: UInt64, slept: UInt64 = 0) -> SourceTime {
    SourceTime(monotonic: awake, boottime: awake + slept, wallMs: 0)
  }

  @Test func theGapGrowingBySecondIsASleep() {
    var detector = ResumeDetector(at: Self.at(10_000_000, slept: 5_000_000))
    #expect(detector.wakeup(at: Self.at(11_000_000, slept: 5_000_000)) == nil)
    #expect(detector.wakeup(at: Self.at(12_000_000, slept: 5_999_999)) == nil)
    #expect(detector.wakeup(at: Self.at(13_000_000, slept: 7_000_000)) == .clockGap)
    #expect(detector.wakeup(at: Self.at(14_000_000, slept: 7_000_000)) == nil)
  }

  @Test func causesTogetherAreOneResume() {
    var detector = ResumeDetector(at: Self.at(1_000_000))
    #expect(detector.signalled(.logind, at: Self.at(2_000_000, slept: 60_000_000)) == .logind)
    #expect(detector.wakeup(at: Self.at(2_100_000, slept: 60_000_000)) == nil)
    #expect(detector.signalled(.continued, at: Self.at(3_999_999, slept: 60_000_000)) == nil)
    // Two seconds later it is another.
    #expect(detector.signalled(.continued, at: Self.at(4_000_000, slept: 60_000_000)) == .continued)
    // A second suspend soon after the first still counts: boot time counts the sleep.
    #expect(detector.wakeup(at: Self.at(4_100_000, slept: 63_000_000)) == .clockGap)
  }

  @Test func sigcontWithoutSleep() {
    var detector = ResumeDetector(at: Self.at(0))
    #expect(detector.signalled(.continued, at: Self.at(5_000_000)) == .continued)
    #expect(ResumeCause.continued.rawValue == "SIGCONT" && ResumeCause.clockGap.rawValue == "clock gap")
  }
}
