import CSystemd
import Glibc

/// A single-threaded event loop on libsystemd's sd-event.
///
/// Sources hold Swift closures; a source stays active until `cancel()` or until its object is
/// released, so an owner that drops its sources cannot be called back afterwards.
///
/// With a `PollSet`, the loop runs itself around the poll set's epoll, which holds sd-event's
/// own descriptor beside the clients: one `epoll_wait` a turn serves the clients, and sd-event
/// is asked in only when its descriptor is ready or a change needs it (`EventLoop+PollSet`).
/// Without one, sd-event runs the loop.
public final class EventLoop {
  /// The `sd_event *`.
  public let raw: OpaquePointer

  /// The poll set the loop waits on, once one is made for it.
  weak var pollSet: PollSet?
  /// The post handlers, which the loop also calls itself at the end of a poll set's turn.
  var postSources: [WeakSource] = []
  /// The instant of the turn under way, while the loop runs around a poll set (sd-event's own
  /// time is not read again for a turn that only served the poll set).
  var instant: UInt64?
  /// Whether something changed, while sd-event was armed outside its own dispatch, that sd-event
  /// must see before the loop sleeps: a timer armed or moved earlier, a deferred handler
  /// triggered, an exit asked for, a child to watch, bus output queued. The loop then ends
  /// the turn with `sd_event_wait(…, 0)`, so that the next `sd_event_prepare` arms its timers
  /// anew and dispatches what is pending.
  var mustPrepare = false

  public init() throws(SystemError) {
    var event: OpaquePointer?
    try checkSD(sd_event_new(&event), "create the event loop")
    raw = event!
  }

  deinit { sd_event_unref(raw) }

  /// The loop's monotonic time in microseconds: the time the current iteration woke, the same
  /// for every handler of the iteration (`sd_event_now`, or the instant the poll set's wait
  /// returned). A turn of the daemon may span several iterations (each dispatches one source,
  /// then the post source runs), so the server reads it once per turn, through `LoopClock`.
  public var now: UInt64 {
    if let instant { return instant }
    return sdEventNow
  }

  /// sd-event's time: the instant its last wait returned (`sd_event_now`).
  var sdEventNow: UInt64 {
    var usec: UInt64 = 0
    _ = sd_event_now(raw, CLOCK_MONOTONIC, &usec)
    return usec
  }

  /// Runs until `exit(code:)`; returns that code (`sd_event_loop`, or the same loop around the
  /// poll set).
  public func run() throws(SystemError) -> CInt {
    guard pollSet != nil else {
      let result = sd_event_loop(raw)
      try checkSD(result, "run the event loop")
      return result
    }
    while sd_event_get_state(raw) != CInt(SD_EVENT_FINISHED) { try runOnce(timeout: .max) }
    var code: CInt = 0
    _ = sd_event_get_exit_code(raw, &code)
    return code
  }

  /// Runs one iteration: waits up to `timeout` microseconds for a source (or, with a poll set,
  /// a client) to be ready, and dispatches it (`sd_event_run`, or a turn around the poll set).
  /// For a caller that runs the loop in steps, checking something between them (tests);
  /// unlike `run()`, it can be called again and again.
  ///
  /// - Returns: whether a source was dispatched or the poll set served.
  @discardableResult
  public func runOnce(timeout: UInt64) throws(SystemError) -> Bool {
    if let pollSet { return try turn(around: pollSet, timeout: timeout) }
    if sd_event_get_state(raw) == CInt(SD_EVENT_ARMED) {
      return try finishArmed(timeout: timeout)  // a poll set that ran the loop is gone
    }
    let result = sd_event_run(raw, timeout)
    try checkSD(result, "run the event loop")
    return result > 0
  }

  /// Makes `run()` return `code` once the current iteration ends (`sd_event_exit`).
  public func exit(code: CInt = 0) {
    _ = sd_event_exit(raw, code)
    mustPrepare = true
  }

  /// Sends `WATCHDOG=1` to the service manager at half the interval in `WATCHDOG_USEC`, when it
  /// is set (`sd_event_set_watchdog`). Returns whether the watchdog is on.
  @discardableResult
  public func enableWatchdog() -> Bool {
    sd_event_set_watchdog(raw, 1) > 0
  }

  /// Calls `handler` with the ready events whenever `fd` is ready for `events`.
  public func addIO(
    fd: FileDescriptor, events: IOEvents, _ handler: @escaping (IOEvents) -> Void
  ) throws(SystemError) -> IOSource {
    let source = IOSource(handler: handler)
    var raw: OpaquePointer?
    let thunk: sd_event_io_handler_t = { _, _, revents, userdata in
      let source = Unmanaged<IOSource>.fromOpaque(userdata!).takeUnretainedValue()
      withExtendedLifetime(source) { source.ioHandler(IOEvents(rawValue: revents)) }
      return 0
    }
    try checkSD(
      sd_event_add_io(self.raw, &raw, fd.rawValue, events.rawValue, thunk, source.userdata),
      "watch file descriptor \(fd.rawValue)")
    source.raw = raw
    return source
  }

  /// Calls `handler` once at `deadline` (microseconds on `clock`); re-arm with `schedule(at:)`.
  /// Without a deadline the timer starts disarmed, waiting for its first `schedule(at:)`.
  /// `accuracy` is how late the loop may fire to save wake-ups.
  public func addTimer(
    at deadline: UInt64? = nil, accuracy: UInt64 = 1, clock: TimerClock = .monotonic,
    _ handler: @escaping () -> Void
  ) throws(SystemError) -> TimerSource {
    let source = TimerSource(handler: handler)
    source.loop = self
    var raw: OpaquePointer?
    let thunk: sd_event_time_handler_t = { _, _, userdata in
      let source = Unmanaged<TimerSource>.fromOpaque(userdata!).takeUnretainedValue()
      source.deadline = nil  // one-shot: fired means disarmed
      withExtendedLifetime(source) { source.handler() }
      return 0
    }
    try checkSD(
      sd_event_add_time(self.raw, &raw, clock.id, deadline ?? UInt64.max, accuracy, thunk, source.userdata),
      "add a timer")
    source.raw = raw
    if deadline == nil { source.disarm() } else { mustPrepare = true }
    source.deadline = deadline
    return source
  }

  /// Calls `handler` once per loop iteration, after the other handlers of that iteration and
  /// before the loop sleeps (`sd_event_add_post`): the place to flush buffered writes. A turn
  /// that served the poll set ends with the loop calling every post handler itself, once.
  public func addPost(_ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
    let source = try addPlain(EventSource(handler: handler), "add a post handler") {
      sd_event_add_post(self.raw, &$0, $1, $2)
    }
    postSources.removeAll { $0.source?.raw == nil }
    postSources.append(WeakSource(source: source))
    return source
  }

  /// Calls `handler` once in the next iteration (`sd_event_add_defer`, one-shot); `trigger()`
  /// calls it once more.
  public func addDefer(_ handler: @escaping () -> Void) throws(SystemError) -> DeferSource {
    let source = DeferSource(handler: handler)
    source.loop = self
    try addPlain(source, "add a deferred handler") {
      sd_event_add_defer(self.raw, &$0, $1, $2)
    }
    source.trigger()
    return source
  }

  /// Calls `handler` when `signal` arrives. The signal must be blocked first (`Signals.block`),
  /// before any thread starts, as sd-event reads it from a signalfd.
  public func addSignal(_ signal: CInt, _ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
    let source = EventSource(handler: handler)
    var raw: OpaquePointer?
    let thunk: sd_event_signal_handler_t = { _, _, userdata in
      let source = Unmanaged<EventSource>.fromOpaque(userdata!).takeUnretainedValue()
      withExtendedLifetime(source) { source.handler() }
      return 0
    }
    try checkSD(sd_event_add_signal(self.raw, &raw, signal, thunk, source.userdata), "handle signal \(signal)")
    source.raw = raw
    return source
  }

  @discardableResult
  private func addPlain<Source: EventSource>(
    _ source: Source, _ what: String,
    _ add: (inout OpaquePointer?, sd_event_handler_t, UnsafeMutableRawPointer) -> CInt
  ) throws(SystemError) -> Source {
    var raw: OpaquePointer?
    let thunk: sd_event_handler_t = { _, userdata in
      let source = Unmanaged<EventSource>.fromOpaque(userdata!).takeUnretainedValue()
      withExtendedLifetime(source) { source.handler() }
      return 0
    }
    try checkSD(add(&raw, thunk, source.userdata), what)
    source.raw = raw
    return source
  }
}

/// Readiness flags of a file descriptor (`EPOLLIN`, `EPOLLOUT`, …).
public struct IOEvents: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  // Inlined constants rather than stored ones, which every use from another module reached
  // through a global's accessor: a connection works out what it watches for on every send.
  @inlinable public static var readable: IOEvents { IOEvents(rawValue: EPOLLIN.rawValue) }
  @inlinable public static var writable: IOEvents { IOEvents(rawValue: EPOLLOUT.rawValue) }
  @inlinable public static var hangUp: IOEvents { IOEvents(rawValue: EPOLLHUP.rawValue) }
  @inlinable public static var error: IOEvents { IOEvents(rawValue: EPOLLERR.rawValue) }
}

/// An event source: active until `cancel()` or release.
public class EventSource {
  var raw: OpaquePointer?
  let handler: () -> Void
  /// The loop, for the sources whose changes it must hear of (`EventLoop.mustPrepare`).
  var loop: EventLoop?

  init(handler: @escaping () -> Void) { self.handler = handler }

  var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  /// Stops the source for good; safe to call from its own handler and more than once.
  public func cancel() {
    if let raw { sd_event_source_disable_unref(raw) }
    raw = nil
  }

  deinit { cancel() }
}

/// A file descriptor watch.
public final class IOSource: EventSource {
  fileprivate let ioHandler: (IOEvents) -> Void

  fileprivate init(handler: @escaping (IOEvents) -> Void) {
    ioHandler = handler
    super.init(handler: {})
  }

  /// Changes the events watched for (`sd_event_source_set_io_events`).
  public func setEvents(_ events: IOEvents) {
    guard let raw else { return }
    _ = sd_event_source_set_io_events(raw, events.rawValue)
  }
}

/// A handler that runs once in the next loop iteration each time it is triggered.
public final class DeferSource: EventSource {
  /// Runs the handler once more, in the next iteration (`SD_EVENT_ONESHOT`).
  public func trigger() {
    guard let raw else { return }
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_ONESHOT))
    loop?.mustPrepare = true
  }

  /// Keeps the handler from running until the next `trigger()`.
  public func disarm() {
    guard let raw else { return }
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_OFF))
  }
}

/// The clock a timer's deadlines are on.
public enum TimerClock: Sendable {
  /// `CLOCK_MONOTONIC` (`EventLoop.now`): stops while the machine sleeps.
  case monotonic
  /// `CLOCK_BOOTTIME` (`BootClock`): counts the time asleep too, so an interval that passed
  /// during a suspend fires at once on resume (and wakes the loop, which then sees the resume).
  case boottime

  var id: clockid_t { self == .monotonic ? CLOCK_MONOTONIC : CLOCK_BOOTTIME }
}

/// A one-shot timer that can be re-armed.
public final class TimerSource: EventSource {
  /// The deadline the timer is armed for; `nil` while disarmed and once it has fired.
  public fileprivate(set) var deadline: UInt64?

  /// Arms the timer for `deadline` (microseconds on its clock), replacing any earlier deadline.
  /// A timer armed anew or moved earlier must reach sd-event's timer descriptor before the
  /// loop sleeps; one moved later need not (the descriptor then wakes the loop early, and
  /// sd-event arms it again).
  public func schedule(at deadline: UInt64) {
    guard let raw else { return }
    _ = sd_event_source_set_time(raw, deadline)
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_ONESHOT))
    if self.deadline.map({ deadline < $0 }) ?? true { loop?.mustPrepare = true }
    self.deadline = deadline
  }

  /// Disarms the timer until the next `schedule(at:)`.
  public func disarm() {
    guard let raw else { return }
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_OFF))
    deadline = nil
  }

  /// Arms the timer for `deadline`, or disarms it for `nil`, unless it is armed so already:
  /// timers that follow a moving deadline are re-armed at the end of every turn, and an
  /// unchanged deadline then costs no system call.
  public func arm(at deadline: UInt64?) {
    guard deadline != self.deadline else { return }
    if let deadline { schedule(at: deadline) } else { disarm() }
  }
}

/// A post handler the loop calls at the end of a poll set's turn, while its owner keeps it.
struct WeakSource {
  weak var source: EventSource?
}
