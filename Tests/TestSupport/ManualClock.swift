/// A monotonic clock the test moves by hand, in the store's unit (microseconds).
public struct ManualClock: Sendable {
  public var now: UInt64 = 1_000_000_000

  public init() {}

  public mutating func advance(ms: UInt64) { now += ms * 1000 }
  public mutating func advance(us: UInt64) { now += us }
}
