import CLinux
import Glibc

/// A set of file descriptors in an epoll of its own, watched by one sd-event IO source.
///
/// sd-event dispatches one source per loop iteration and asks epoll again before the next, so
/// a thousand ready clients cost a thousand `epoll_wait`s and a thousand trips through the
/// loop. Holding every client in one inner epoll set, drained by one callback, serves every
/// client that one `epoll_wait` found in one turn, as Redis does, and the post source then
/// ends the turn once for all of them. The set is level-triggered: a descriptor still ready
/// after its turn (input left in the socket) is reported again by the next `epoll_wait`, and
/// the kernel moves reported descriptors to the back of its ready list, so more ready
/// descriptors than one batch holds are served in rotation.
public final class PollSet {
  /// The largest number of ready descriptors one `ready(_:)` call reports.
  public static let batch = 256

  private let epoll: FileDescriptor
  private var source: IOSource?
  /// Where `epoll_wait` writes the ready descriptors. `struct epoll_event` is packed on x86-64
  /// (12 bytes, its data at offset 4), and Swift imports it so (PollSetTests checks the layout
  /// and reads several events back).
  private let ready: UnsafeMutablePointer<epoll_event>

  /// Creates the set; `handler` runs whenever some descriptor in it is ready, and should call
  /// `ready(_:)`.
  public init(loop: EventLoop, _ handler: @escaping () -> Void) throws(SystemError) {
    let raw = epoll_create1(CInt(EPOLL_CLOEXEC))
    guard raw >= 0 else { throw SystemError("create an epoll set", Errno.current) }
    epoll = FileDescriptor(rawValue: raw)
    ready = .allocate(capacity: PollSet.batch)
    do {
      source = try loop.addIO(fd: epoll, events: .readable) { _ in handler() }
    } catch {
      epoll.close()
      throw error
    }
  }

  deinit {
    source?.cancel()
    epoll.close()
    ready.deallocate()
  }

  /// Watches `fd` for `events`, level-triggered.
  public func add(_ fd: FileDescriptor, events: IOEvents) throws(SystemError) {
    guard control(EPOLL_CTL_ADD, fd, events) == 0 else {
      throw SystemError("watch file descriptor \(fd.rawValue)", Errno.current)
    }
  }

  /// Changes the events `fd` is watched for.
  public func modify(_ fd: FileDescriptor, events: IOEvents) {
    _ = control(EPOLL_CTL_MOD, fd, events)
  }

  /// Stops watching `fd` (before it is closed: a descriptor another process still holds, such
  /// as a child between `fork` and `exec`, would otherwise stay in the set).
  public func remove(_ fd: FileDescriptor) {
    _ = control(EPOLL_CTL_DEL, fd, [])
  }

  /// `epoll_ctl` with the descriptor itself as the event's data.
  private func control(_ operation: CInt, _ fd: FileDescriptor, _ events: IOEvents) -> CInt {
    var event = epoll_event()
    event.events = events.rawValue
    event.data.fd = fd.rawValue
    return epoll_ctl(epoll.rawValue, operation, fd.rawValue, &event)
  }

  /// Calls `body` with each ready descriptor and its events, at most `batch` of them, from one
  /// `epoll_wait` that does not wait. Returns how many were ready.
  @discardableResult
  public func ready(_ body: (CInt, IOEvents) -> Void) -> Int {
    let n = Int(epoll_wait(epoll.rawValue, ready, CInt(PollSet.batch), 0))
    guard n > 0 else { return 0 }
    for i in 0..<n { body(ready[i].data.fd, IOEvents(rawValue: ready[i].events)) }
    return n
  }
}
