import CLinux
import CSystemd
import Glibc

/// The event loop's own epoll set: the descriptors of many clients, and sd-event's descriptor,
/// so that one `epoll_wait` a turn finds both (`EventLoop+PollSet`).
///
/// sd-event dispatches one source per loop iteration and asks epoll again before the next, so
/// a thousand ready clients as sd-event sources cost a thousand `epoll_wait`s and a thousand
/// trips through the loop. In one poll set that the loop waits on itself, every client one
/// `epoll_wait` found ready is served by one call of the handler, as Redis does, and the loop
/// then ends the turn once for all of them (its post handlers). The set is level-triggered: a
/// descriptor still ready after its turn (input left in the socket) is reported again by the
/// next `epoll_wait`, and the kernel moves reported descriptors to the back of its ready list,
/// so more ready descriptors than one batch holds are served in rotation.
public final class PollSet {
  /// The largest number of ready descriptors one `ready(_:)` call reports.
  public static let batch = 256

  private let epoll: FileDescriptor
  /// sd-event's epoll, in the set beside the clients.
  private let loopDescriptor: CInt
  /// What runs once in every turn in which some descriptor in the set is ready (or after
  /// `serveNextTurn()`); it should call `ready(_:)`. Given when the set is made, or set once by
  /// an owner that makes the set in its own initializer.
  public var handler: () -> Void
  /// Where `epoll_wait` writes the ready descriptors (a batch, and sd-event's). `struct
  /// epoll_event` is packed on x86-64 (12 bytes, its data at offset 4), and Swift imports it
  /// so (PollSetTests checks the layout and reads several events back).
  private let ready: UnsafeMutablePointer<epoll_event>
  /// How many of `ready` the turn's wait filled.
  private var readyCount = 0
  /// Whether the handler runs next turn whatever the clients' sockets say.
  public private(set) var servesNextTurn = false

  /// Creates the set, which `loop` then waits on, with its `handler`.
  public init(loop: EventLoop, _ handler: @escaping () -> Void = {}) throws(SystemError) {
    let raw = epoll_create1(CInt(EPOLL_CLOEXEC))
    guard raw >= 0 else { throw SystemError("create an epoll set", Errno.current) }
    epoll = FileDescriptor(rawValue: raw)
    loopDescriptor = sd_event_get_fd(loop.raw)
    self.handler = handler
    ready = .allocate(capacity: PollSet.batch + 1)
    do {
      try add(FileDescriptor(rawValue: loopDescriptor), events: .readable)
    } catch {
      epoll.close()
      ready.deallocate()
      throw error
    }
    loop.pollSet = self
  }

  deinit {
    epoll.close()
    ready.deallocate()
  }

  /// Watches `fd` for `events`, level-triggered.
  ///
  /// - Throws: `SystemError` when the kernel has no room for it (`ENOMEM`, or `ENOSPC` past
  ///   `max_user_watches`). A descriptor that is not open or is in the set already is the
  ///   caller's mistake, and fails a precondition (`control`).
  public func add(_ fd: FileDescriptor, events: IOEvents) throws(SystemError) {
    try control(EPOLL_CTL_ADD, fd, events, "watch file descriptor \(fd.rawValue)")
  }

  /// Changes the events `fd` is watched for.
  ///
  /// - Throws: `SystemError` for a failure that is not the caller's mistake (the kernel
  ///   documents none); a descriptor that is not open or not in the set fails a precondition.
  public func modify(_ fd: FileDescriptor, events: IOEvents) throws(SystemError) {
    try control(EPOLL_CTL_MOD, fd, events, "change the events file descriptor \(fd.rawValue) is watched for")
  }

  /// Stops watching `fd` (before it is closed: a descriptor another process still holds, such
  /// as a child between `fork` and `exec`, would otherwise stay in the set).
  ///
  /// - Throws: `SystemError` for a failure that is not the caller's mistake (the kernel
  ///   documents none); a descriptor that is not open or not in the set fails a precondition.
  public func remove(_ fd: FileDescriptor) throws(SystemError) {
    try control(EPOLL_CTL_DEL, fd, [], "stop watching file descriptor \(fd.rawValue)")
  }

  /// `epoll_ctl` with the descriptor itself as the event's data.
  ///
  /// As swift-nio's system calls do, a failure that can only come from a mistake of ours is a
  /// failed precondition, not an error to handle: the descriptor is not open (`EBADF`), not in
  /// the set (`ENOENT`) or in it already (`EEXIST`), or cannot be watched at all (`EPERM`,
  /// `EINVAL`, `ELOOP`). Passing over one silently would leave a client watched for the wrong
  /// events, or not at all, with nothing in the log. Whatever else fails is thrown.
  private func control(
    _ operation: CInt, _ fd: FileDescriptor, _ events: IOEvents, _ what: @autoclosure () -> String
  ) throws(SystemError) {
    var event = epoll_event()
    event.events = events.rawValue
    event.data.fd = fd.rawValue
    guard epoll_ctl(epoll.rawValue, operation, fd.rawValue, &event) != 0 else { return }
    let error = Errno.current
    precondition(!PollSet.mistakes.contains(error.rawValue), "Failed to \(what()): \(error)")
    throw SystemError(what(), error)
  }

  /// The `epoll_ctl` failures that only a mistake of the caller's can cause.
  private static let mistakes: Set<CInt> = [EBADF, ENOENT, EEXIST, EPERM, EINVAL, ELOOP]

  /// Has the handler run in the next turn even if no descriptor is ready, and that turn's wait
  /// not wait: work is left over (lines beyond a connection's allowance, reading resumed).
  public func serveNextTurn() {
    servesNextTurn = true
  }

  /// The turn's one `epoll_wait`, for up to `timeout` microseconds (`UInt64.max`: for ever).
  /// Returns whether sd-event's descriptor is ready.
  func wait(timeout: UInt64) -> Bool {
    let milliseconds = timeout == .max ? -1 : CInt(clamping: (timeout + 999) / 1000)
    let n = epoll_wait(epoll.rawValue, ready, CInt(PollSet.batch + 1), milliseconds)
    readyCount = max(0, Int(n))  // EINTR: nothing ready this turn
    for i in 0..<readyCount where ready[i].data.fd == loopDescriptor { return true }
    return false
  }

  /// Runs the handler when a client is ready or work was left over. Returns whether it ran.
  func serve() -> Bool {
    defer { readyCount = 0 }
    guard servesNextTurn || readyCount > 1 || (readyCount == 1 && ready[0].data.fd != loopDescriptor) else {
      return false
    }
    servesNextTurn = false
    handler()
    return true
  }

  /// Calls `body` with each descriptor the turn's `epoll_wait` found ready (sd-event's aside),
  /// and its events, at most `batch` of them. Returns how many.
  @discardableResult
  public func ready(_ body: (CInt, IOEvents) -> Void) -> Int {
    var count = 0
    for i in 0..<readyCount where ready[i].data.fd != loopDescriptor {
      body(ready[i].data.fd, IOEvents(rawValue: ready[i].events))
      count += 1
    }
    return count
  }
}
