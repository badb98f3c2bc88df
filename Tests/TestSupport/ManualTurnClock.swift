import BadgeCore
import BadgeLog

/// A turn's clock set by hand: the monotonic instant and the local day, which a test moves as
/// it likes, so that what the server does at a time is checked at exactly that time.
public final class ManualTurnClock: TurnClock {
  public var now: UInt64 = 1_000_000_000
  public var day = 20_000
  /// How many times the day was read.
  public private(set) var dayReads = 0
  /// The wall clock, set by hand.
  public var wall: UInt64 = 1_764_620_000_000

  public init() {}

  public func today() -> Int {
    dayReads += 1
    return day
  }

  public func wallMilliseconds() -> UInt64 { wall }
}

/// Log lines kept in memory.
public final class LogLines: LogSink, @unchecked Sendable {
  public private(set) var lines: [String] = []

  public init() {}

  public func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String) {
    lines.append(message)
  }
}
