import BadgeCore

/// The daemon's `TurnClock`: the event loop's time (`EventLoop.now`) and the local day from the
/// wall clock (`LocalDayClock`, one `time()` while the day lasts).
public final class LoopClock: TurnClock {
  private let loop: EventLoop
  private var days = LocalDayClock()

  public init(loop: EventLoop) {
    self.loop = loop
  }

  public var now: UInt64 { loop.now }

  public func today() -> Int { days.today() }

  public func wallMilliseconds() -> UInt64 { Environment.wallClockMicroseconds / 1000 }
}
