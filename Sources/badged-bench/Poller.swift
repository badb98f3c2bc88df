import CEpoll
import Glibc

/// A level-triggered epoll set whose events carry a caller's token (an index into its array
/// of connections). One thread drives any number of connections with it.
final class Poller {
  let fd: Int32
  private var events: [epoll_event]

  init(capacity: Int = 1024) {
    fd = epoll_create1(Int32(EPOLL_CLOEXEC))
    if fd < 0 { fail("epoll_create1: errno \(errno)") }
    events = Array(repeating: epoll_event(), count: capacity)
  }

  deinit { close(fd) }

  func add(_ descriptor: Int32, token: Int, writable: Bool = false) {
    control(EPOLL_CTL_ADD, descriptor, token, writable)
  }
  func modify(_ descriptor: Int32, token: Int, writable: Bool) { control(EPOLL_CTL_MOD, descriptor, token, writable) }
  func remove(_ descriptor: Int32) { _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, nil) }

  private func control(_ operation: Int32, _ descriptor: Int32, _ token: Int, _ writable: Bool) {
    var event = epoll_event()
    event.events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
    event.data.u64 = UInt64(token)
    if epoll_ctl(fd, operation, descriptor, &event) != 0 { fail("epoll_ctl: errno \(errno)") }
  }

  /// Waits up to `timeoutMs` and calls `body` with the token of each ready descriptor and
  /// whether it may be written.
  func wait(timeoutMs: Int32, _ body: (Int, Bool) -> Void) {
    let count = events.withUnsafeMutableBufferPointer { epoll_wait(fd, $0.baseAddress, Int32($0.count), timeoutMs) }
    if count < 0 {
      if errno == EINTR { return }
      fail("epoll_wait: errno \(errno)")
    }
    for i in 0..<Int(count) {
      let event = events[i]
      body(Int(event.data.u64), event.events & EPOLLOUT.rawValue != 0)
    }
  }
}

/// Ends the run with a message when a deadline passes; checked once per loop turn.
struct Deadline {
  let at: UInt64
  init(seconds: Double) { at = monotonicNanos() + UInt64(seconds * 1e9) }
  func check(_ what: @autoclosure () -> String) {
    if monotonicNanos() > at { fail("timed out: \(what())") }
  }
}
