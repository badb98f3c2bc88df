import BadgeCore
import Testing

/// Reconnection delays: doubling to a ceiling, each from the upper half of its nominal delay.
@Suite struct BackoffTests {
  /// A generator that always gives the same word, so the draw is at one end of its range.
  struct Fixed: RandomNumberGenerator {
    let value: UInt64
    mutating func next() -> UInt64 { value }
  }

  @Test func delaysDoubleToTheMaximumAndStartOverAfterASuccess() {
    var backoff = Backoff(initial: 100_000, maximum: 1_000_000)
    var low = Fixed(value: 0)
    let delays = (0..<6).map { _ in backoff.failed(using: &low) }
    #expect(delays == [50_000, 100_000, 200_000, 400_000, 500_000, 500_000])
    #expect(backoff.failures == 6)
    backoff.succeeded()
    #expect(backoff.failed(using: &low) == 50_000)
  }

  @Test func jitterStaysInTheUpperHalf() {
    var backoff = Backoff(initial: 1_000_000, maximum: 1_000_000)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<1000 {
      let delay = backoff.failed(using: &random)
      #expect((500_000...1_000_000).contains(delay))
    }
    var high = Fixed(value: .max)
    let longest = backoff.failed(using: &high)
    #expect(longest == 999_999)
  }
}
