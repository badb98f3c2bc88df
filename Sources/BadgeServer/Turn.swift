import BadgeCore

/// A loop turn as the core sees it: when it happens, and how far it has got.
///
/// A turn handles whatever is ready (requests, bus signals, timers): changes are made, their
/// events staged and replies queued. Its end (the daemon's post handler) commits the changes,
/// publishes their events and sends the output; then the next turn begins. The turn's time is
/// read from the clock once, by whatever comes first in it, so that every change of a turn
/// happens at one instant and counts on one local day in history, whichever source made it.
/// The phase lets debug builds assert the turn's order where it matters: nothing is read while
/// the turn ends, no change is made once its commit began, no event goes out before its
/// commit, and output is sent only at the end of the turn.
public final class Turn {
  public enum Phase: Sendable {
    /// Requests, bus signals and timers are handled: changes are made and staged.
    case handling
    /// The turn ends: the change log saves its changes.
    case committing
    /// The changes are saved (or undone): their events go to watchers.
    case publishing
    /// The turn's output is sent.
    case sending
  }

  public private(set) var phase = Phase.handling
  private let clock: any TurnClock
  private let store: Store
  /// The turn's instant and day, once something in it asked.
  private var time: (now: UInt64, today: Int)?

  init(clock: any TurnClock, store: Store) {
    self.clock = clock
    self.store = store
  }

  /// The turn's instant (monotonic microseconds): read from the clock by the first thing that
  /// asks in the turn, and the same for everything after it until the turn ends.
  public var now: UInt64 {
    @inline(__always) get { begin().now }
  }

  /// The turn's instant when something in it asked already, else `nil`; the clock is not read.
  public var began: UInt64? { time?.now }

  /// The wall clock now, in milliseconds since the epoch (read each time: only what other
  /// machines compare asks for it).
  public func wallMilliseconds() -> UInt64 { clock.wallMilliseconds() }

  /// The turn's local day, which history counts its changes on.
  public var today: Int { begin().today }

  /// Reads the clock, unless the turn's time is known already, and puts its day in force for
  /// the store's history: the one place the day is set, for every source of changes. Whatever
  /// the core is asked begins the turn; the daemon begins its start's turn by hand.
  @inline(__always) @discardableResult
  public func begin() -> (now: UInt64, today: Int) {
    if let time { return time }
    let time = (now: clock.now, today: clock.today())
    store.today = time.today
    self.time = time
    return time
  }

  /// The end of the turn moves on to `next`, in order.
  func enter(_ next: Phase) {
    switch (phase, next) {
    case (.handling, .committing), (.committing, .publishing), (.publishing, .sending): break
    default: assertionFailure("the turn went from \(phase) to \(next)")
    }
    phase = next
  }

  /// The turn is over: the next one reads the clock again.
  func ended() {
    phase = .handling
    time = nil
  }
}
