/// The time a loop turn happens at: the monotonic instant everything of the turn is timed by
/// (pulse windows, do-not-disturb's end) and the local day its changes count on in history.
///
/// The server's pure core reads it once per turn, whatever begins the turn (a request, a bus
/// signal, a timer), so every change of a turn happens at one instant on one day. The daemon's
/// is the event loop's time and the local calendar (BadgeSystem's `LoopClock`); tests set one
/// by hand.
public protocol TurnClock: AnyObject {
  /// Monotonic microseconds.
  var now: UInt64 { get }
  /// The local day number (days since 1970-01-01 in local time), the unit history counts in.
  func today() -> Int
  /// Wall-clock milliseconds since the epoch: for what other machines compare (when a mirrored
  /// channel's owner was last heard from, when do-not-disturb changed).
  func wallMilliseconds() -> UInt64
}
