import Glibc

/// A point on the monotonic clock that a blocking step must finish by; `poll` is given what is
/// left of it, so a step woken early (EINTR, a partial TLS record) does not start its timeout
/// again.
struct Deadline {
  /// Nanoseconds on `CLOCK_MONOTONIC`; `nil` for no deadline.
  private let atNs: Int64?

  /// A deadline `timeoutMs` from now; `nil`: none.
  init(afterMs timeoutMs: Int?) {
    atNs = timeoutMs.map { Deadline.nowNs() + Int64(max(0, $0)) * 1_000_000 }
  }

  /// What is left, as `poll` takes it: -1 for no deadline, else 0 or more, rounded up (a wait
  /// never ends before the deadline).
  var pollTimeout: CInt {
    guard let atNs else { return -1 }
    return CInt(clamping: (max(0, atNs - Deadline.nowNs()) + 999_999) / 1_000_000)
  }

  /// Whether the deadline has passed.
  var passed: Bool { pollTimeout == 0 }

  private static func nowNs() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}

/// What waiting on a socket (and a wake descriptor) came to.
enum Readiness {
  case ready
  case woken
  case timedOut
}

/// Waits until `fd` is ready for `events` (`POLLIN` or `POLLOUT`), `wake` is readable (-1: no
/// wake descriptor), or `deadline` passes; EINTR waits again for what is left. A socket in
/// error or hung up counts as ready: the read or write that follows says what happened.
func waitFor(_ fd: CInt, _ events: CInt, wake: CInt = -1, until deadline: Deadline) -> Readiness {
  var fds = [
    pollfd(fd: fd, events: Int16(events), revents: 0),
    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
  ]
  while true {
    let n = poll(&fds, 2, deadline.pollTimeout)
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { return .timedOut }
    if fds[1].revents != 0 { return .woken }
    return .ready
  }
}
