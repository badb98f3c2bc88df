/// A held key or button and how much each repeat counts: the long press of a stepper, which
/// repeats and, after about a second, takes bigger steps.
///
/// A terminal reports no key releases: a held key arrives as the terminal's own repeats, a
/// press every few tens of milliseconds after an initial delay. Presses of the same key closer
/// together than `gap` therefore count as one hold. A mouse button does report its release; while
/// it is down, `nextRepeat(after:)` says when the screen should repeat the press itself.
public struct HoldRepeat: Equatable, Sendable {
  /// The longest pause between two presses of one hold: longer than a terminal's initial
  /// repeat delay (usually 0.25–0.6 s), shorter than a deliberate second press takes.
  public static let gap = 0.65
  /// How long a hold lasts before its repeats take bigger steps.
  public static let accelerateAfter = 1.0
  /// How much bigger.
  public static let acceleratedFactor = 10
  /// A held mouse button repeats after this delay…
  public static let repeatDelay = 0.4
  /// …and then at this interval.
  public static let repeatInterval = 0.1

  /// What is held (a key or a button, by name).
  public private(set) var held: String?
  private var start = 0.0
  private var last = 0.0

  public init() {}

  /// A press of `key` at `time`; returns the factor the press's step is multiplied by: 1, or
  /// `acceleratedFactor` once the same key has been held for `accelerateAfter`.
  public mutating func press(_ key: String, at time: Double) -> Int {
    if held != key || time - last > HoldRepeat.gap {
      held = key
      start = time
    }
    last = time
    return time - start >= HoldRepeat.accelerateAfter ? HoldRepeat.acceleratedFactor : 1
  }

  /// The key or button was released (or something else happened): the next press starts anew.
  public mutating func release() {
    held = nil
  }

  /// When a button held since `press` should repeat next, after `time`: the delay after the
  /// first press, then every interval; `nil` when nothing is held.
  public func nextRepeat(after time: Double) -> Double? {
    guard held != nil else { return nil }
    let first = start + HoldRepeat.repeatDelay
    guard time >= first else { return first }
    let steps = ((time - first) / HoldRepeat.repeatInterval).rounded(.down) + 1
    return first + steps * HoldRepeat.repeatInterval
  }
}
