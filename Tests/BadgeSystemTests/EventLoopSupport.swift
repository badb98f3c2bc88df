import BadgeSystem
import Glibc

/// The exit code of a loop the guard timer had to stop.
let timedOut: CInt = 99

extension EventLoop {
  /// Runs until a handler calls `exit(code:)`, or returns `timedOut` after two seconds.
  func runGuarded() throws -> CInt {
    let guardTimer = try addTimer(at: Environment.monotonicMicroseconds + 2_000_000) { [unowned self] in
      exit(code: timedOut)
    }
    defer { guardTimer.cancel() }
    return try run()
  }

  /// Makes `run()` return `code` once `ms` milliseconds have passed.
  func exit(code: CInt, afterMs ms: UInt64) throws -> TimerSource {
    try addTimer(at: Environment.monotonicMicroseconds + ms * 1000) { [unowned self] in exit(code: code) }
  }
}

/// A socket pair whose ends the test closes itself (each exactly once).
func rawSocketPair() -> (FileDescriptor, FileDescriptor) {
  var fds: [CInt] = [-1, -1]
  let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
  precondition(socketpair(AF_UNIX, type, 0, &fds) == 0)
  return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
}
