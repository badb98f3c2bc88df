/// Warnings that a peer can cause over and over (a bus app sending ids past a limit, clients
/// refused one after another, hooks that keep failing), logged at most once per reason per
/// interval, so that no source of input can fill the journal or make logging the daemon's work.
///
/// The first warning of a reason goes out at once. Later ones within `interval` of it are
/// counted, not written; the first one after the interval goes out with the count of those
/// dropped, and so opens a new interval. A reason whose interval has passed with warnings
/// dropped and nothing new to say is reported by `flush(now:)` ("…: 12 more like this in the
/// last 10 s"), which the daemon calls when `nextFlush` is due, so the count is never lost to
/// a source that went quiet.
///
/// Pure, like the rest of BadgeCore: the caller passes the monotonic time (microseconds).
public final class RepeatedWarnings {
  /// What a run of warnings is about: one interval and one count each. The text names the
  /// source and the limit ("launcher entry: apps past [bridge] max_apps"), and starts the line
  /// of the count.
  public struct Reason: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
      self.description = description
    }
  }

  /// How long after a line goes out the same reason is only counted (microseconds).
  public let interval: UInt64
  private let logger: Logger
  /// Per reason: when its current interval began, how many were dropped in it, and the fields
  /// of the last one dropped (the count's line carries them).
  private var runs: [Reason: (began: UInt64, dropped: Int, level: Logger.Level)] = [:]

  /// The default interval: long enough that a flood costs a line now and then, short enough
  /// that a user reading the journal sees a problem while it lasts.
  public static let defaultInterval: UInt64 = 10_000_000

  public init(logger: Logger, interval: UInt64 = RepeatedWarnings.defaultInterval) {
    self.logger = logger
    self.interval = interval
  }

  /// Logs `message` at `level` unless a line of `reason` went out less than `interval` ago;
  /// then it only counts. The message is built only when it goes out.
  ///
  /// - Returns: whether the line went out.
  @discardableResult
  public func log(
    _ level: Logger.Level, _ reason: Reason, now: UInt64, _ message: @autoclosure () -> String,
    _ fields: @autoclosure () -> [Logger.Field] = []
  ) -> Bool {
    guard level <= logger.level else { return false }
    if let run = runs[reason], now < run.began + interval {
      runs[reason] = (run.began, run.dropped + 1, min(run.level, level))
      return false
    }
    let dropped = runs[reason]?.dropped ?? 0
    runs[reason] = (now, 0, level)
    let suffix = dropped > 0 ? " (\(dropped) more like this in the last \(Self.seconds(interval)) s)" : ""
    logger.log(level, message() + suffix, fields())
    return true
  }

  /// Whether any warning is counted and not reported: `nextFlush` is then when to call `flush`.
  public var nextFlush: UInt64? {
    // Asked at the end of every turn: nothing to walk in the common case.
    guard !runs.isEmpty else { return nil }
    return runs.values.lazy.filter { $0.dropped > 0 }.map { $0.began + self.interval }.min()
  }

  /// Reports the count of every reason whose interval has passed with warnings dropped, and
  /// forgets the reasons whose interval has passed, so the table holds only the reasons seen
  /// within the last interval.
  public func flush(now: UInt64) {
    for (reason, run) in runs where now >= run.began + interval {
      if run.dropped > 0 {
        logger.log(run.level, "\(reason): \(run.dropped) more like this in the last \(Self.seconds(interval)) s.")
      }
      runs[reason] = nil
    }
  }

  /// The number of reasons remembered (for tests of the table's bound).
  public var reasonCount: Int { runs.count }

  private static func seconds(_ microseconds: UInt64) -> UInt64 { max(1, microseconds / 1_000_000) }
}
