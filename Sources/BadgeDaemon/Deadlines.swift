import BadgeCore
import BadgeServer
import BadgeSystem

/// Every deadline of the server on one timer: the core's (the earliest pulse window end,
/// do-not-disturb's timed end, the next repair, the next count of repeated warnings, the
/// bridge's mirrors to make stale), each connection's (a line begun and not finished, output
/// none of which is read), the acceptor's back-off and the heap's trim.
///
/// A deadline has a slot, which its owner takes once (`slot`) with what runs when it comes, and
/// then sets, moves and clears (`set`) as it goes. The slots' deadlines are kept earliest first
/// (a `PulseQueue` keyed by slot, as the store keeps its pulse windows), and the alarm, the
/// loop's one sd-event timer, is set for the earliest alone, once, at the end of the turn
/// (`setAlarm`, from `Server.endTurn`): however many deadlines a turn set, moved or ran, a turn
/// that leaves the earliest as it was costs no system call, and a daemon with no deadline, an
/// idle one, has no timer armed and sleeps. When the alarm rings, every deadline due runs,
/// earliest first, in one turn (`fireDue`); the post handler then ends it, as after any other
/// source.
///
/// The table reads the turn's clock (`Turn.now`), and the alarm is a seam (`DeadlineAlarm`): a
/// test that drives the server with a clock of its own moves every deadline with it, and rings
/// the alarm by hand.
final class Deadlines {
  /// A place for one deadline in the table.
  struct Slot: Equatable {
    fileprivate let index: Int
  }

  private var queue = PulseQueue<SlotPositions>()
  /// Each slot's deadline, as the queue has it: what a turn sets again unchanged (the core's
  /// deadlines, every turn) is found equal here, without a look into the queue.
  private var deadlines: [UInt64?] = []
  /// What runs when each slot's deadline comes, by slot; `nil` for a slot given back.
  private var handlers: [(() -> Void)?] = []
  /// Slots given back, taken again before the table grows.
  private var free: [Int] = []
  private let turn: Turn
  private let alarm: any DeadlineAlarm
  /// What the alarm was last set to.
  private var armed: UInt64?
  /// Whether the queue changed since the alarm was set.
  private var changed = false

  /// A table on `turn`'s clock, which sets `alarm` for its earliest deadline.
  init(turn: Turn, alarm: any DeadlineAlarm) {
    self.turn = turn
    self.alarm = alarm
    alarm.ring = { [unowned self] in fireDue() }
  }

  /// A new slot, without a deadline, whose deadline runs `handler` when it comes.
  func slot(_ handler: @escaping () -> Void) -> Slot {
    if let index = free.popLast() {
      handlers[index] = handler
      return Slot(index: index)
    }
    handlers.append(handler)
    deadlines.append(nil)
    return Slot(index: handlers.count - 1)
  }

  /// Gives `slot` back, with its deadline if it has one (its owner is gone).
  func release(_ slot: Slot) {
    set(slot, at: nil)
    handlers[slot.index] = nil
    free.append(slot.index)
  }

  /// The deadline of `slot` (monotonic microseconds), if it has one.
  func deadline(of slot: Slot) -> UInt64? {
    deadlines[slot.index]
  }

  /// Sets, moves or clears (`nil`) the deadline of `slot`. One that is already so costs a look.
  func set(_ slot: Slot, at deadline: UInt64?) {
    guard deadlines[slot.index] != deadline else { return }
    deadlines[slot.index] = deadline
    changed = true
    if let deadline { queue.schedule(deadline, for: slot.index) } else { queue.remove(slot.index) }
  }

  /// Sets the deadline of `slot` to `delay` microseconds after the turn's instant.
  func set(_ slot: Slot, after delay: UInt64) {
    set(slot, at: turn.now + delay)
  }

  /// How many slots have a deadline.
  var count: Int { queue.count }

  /// Runs the handler of every deadline due at the turn's instant, earliest first, each taken
  /// out of the table before it runs (it may set itself again). The alarm rings it.
  func fireDue() {
    let now = turn.now
    while let due = queue.popDue(at: now) {
      deadlines[due.channel] = nil
      changed = true
      handlers[due.channel]?()
    }
  }

  /// Sets the alarm for the earliest deadline, unless it is set so already: at the end of every
  /// turn, once its deadlines are all set.
  func setAlarm() {
    guard changed else { return }
    changed = false
    let earliest = queue.earliest
    guard earliest != armed else { return }
    armed = earliest
    alarm.set(earliest)
  }
}

/// What rings when the earliest deadline comes: the loop's timer (`LoopAlarm`), or a test's
/// hand.
protocol DeadlineAlarm: AnyObject {
  /// What ringing runs: set once, by the table the alarm serves.
  var ring: () -> Void { get set }
  /// Rings at `deadline` (monotonic microseconds), or never for `nil`, in place of what was
  /// set before.
  func set(_ deadline: UInt64?)
}

/// The daemon's alarm: one sd-event timer, precise to the microsecond (a pulse window's end is
/// shown to watchers as it happens).
final class LoopAlarm: DeadlineAlarm {
  var ring: () -> Void = {}
  private var timer: TimerSource?

  init(loop: EventLoop) throws(SystemError) {
    timer = try loop.addTimer { [unowned self] in ring() }
  }

  func set(_ deadline: UInt64?) {
    timer?.arm(at: deadline)
  }
}
