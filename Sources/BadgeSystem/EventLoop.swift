import CSystemd
import Glibc

/// A single-threaded event loop on libsystemd's sd-event.
///
/// Sources hold Swift closures; a source stays active until `cancel()` or until its object is
/// released, so an owner that drops its sources cannot be called back afterwards.
public final class EventLoop {
  /// The `sd_event *`.
  public let raw: OpaquePointer

  public init() throws(SystemError) {
    var event: OpaquePointer?
    try checkSD(sd_event_new(&event), "create the event loop")
    raw = event!
  }

  deinit { sd_event_unref(raw) }

  /// The loop's monotonic time in microseconds: the time the current iteration woke
  /// (`sd_event_now`), the same for every handler of the iteration. A turn of the daemon may
  /// span several iterations (each dispatches one source, then the post source runs), so the
  /// server reads it once per turn, through `LoopClock`.
  public var now: UInt64 {
    var usec: UInt64 = 0
    _ = sd_event_now(raw, CLOCK_MONOTONIC, &usec)
    return usec
  }

  /// Runs until `exit(code:)`; returns that code (`sd_event_loop`).
  public func run() throws(SystemError) -> CInt {
    let result = sd_event_loop(raw)
    try checkSD(result, "run the event loop")
    return result
  }

  /// Runs one iteration: waits up to `timeout` microseconds for a source to be ready, and
  /// dispatches it (`sd_event_run`). For a caller that runs the loop in steps, checking
  /// something between them (tests); unlike `run()`, it can be called again and again.
  ///
  /// - Returns: whether a source was dispatched.
  @discardableResult
  public func runOnce(timeout: UInt64) throws(SystemError) -> Bool {
    let result = sd_event_run(raw, timeout)
    try checkSD(result, "run the event loop")
    return result > 0
  }

  /// Makes `run()` return `code` once the current iteration ends (`sd_event_exit`).
  public func exit(code: CInt = 0) {
    _ = sd_event_exit(raw, code)
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

  /// Calls `handler` once at `deadline` (monotonic microseconds); re-arm with `schedule(at:)`.
  /// Without a deadline the timer starts disarmed, waiting for its first `schedule(at:)`.
  /// `accuracy` is how late the loop may fire to save wake-ups.
  public func addTimer(
    at deadline: UInt64? = nil, accuracy: UInt64 = 1, _ handler: @escaping () -> Void
  ) throws(SystemError) -> TimerSource {
    let source = TimerSource(handler: handler)
    var raw: OpaquePointer?
    let thunk: sd_event_time_handler_t = { _, _, userdata in
      let source = Unmanaged<TimerSource>.fromOpaque(userdata!).takeUnretainedValue()
      source.deadline = nil  // one-shot: fired means disarmed
      withExtendedLifetime(source) { source.handler() }
      return 0
    }
    try checkSD(
      sd_event_add_time(self.raw, &raw, CLOCK_MONOTONIC, deadline ?? UInt64.max, accuracy, thunk, source.userdata),
      "add a timer")
    source.raw = raw
    if deadline == nil { source.disarm() }
    source.deadline = deadline
    return source
  }

  /// Calls `handler` once per loop iteration, after the other handlers of that iteration and
  /// before the loop sleeps (`sd_event_add_post`): the place to flush buffered writes.
  public func addPost(_ handler: @escaping () -> Void) throws(SystemError) -> EventSource {
    try addPlain(EventSource(handler: handler), "add a post handler") { sd_event_add_post(self.raw, &$0, $1, $2) }
  }

  /// Calls `handler` once in the next iteration (`sd_event_add_defer`, one-shot); `trigger()`
  /// calls it once more.
  public func addDefer(_ handler: @escaping () -> Void) throws(SystemError) -> DeferSource {
    let source = try addPlain(DeferSource(handler: handler), "add a deferred handler") {
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

  public static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
  public static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
  public static let hangUp = IOEvents(rawValue: EPOLLHUP.rawValue)
  public static let error = IOEvents(rawValue: EPOLLERR.rawValue)
}

/// An event source: active until `cancel()` or release.
public class EventSource {
  var raw: OpaquePointer?
  let handler: () -> Void

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
  }

  /// Keeps the handler from running until the next `trigger()`.
  public func disarm() {
    guard let raw else { return }
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_OFF))
  }
}

/// A one-shot timer that can be re-armed.
public final class TimerSource: EventSource {
  /// The deadline the timer is armed for; `nil` while disarmed and once it has fired.
  public fileprivate(set) var deadline: UInt64?

  /// Arms the timer for `deadline` (monotonic microseconds), replacing any earlier deadline.
  public func schedule(at deadline: UInt64) {
    guard let raw else { return }
    _ = sd_event_source_set_time(raw, deadline)
    _ = sd_event_source_set_enabled(raw, CInt(SD_EVENT_ONESHOT))
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
