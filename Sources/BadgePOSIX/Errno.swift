import CLinux
import Glibc

/// An error number from a system call or a negative `sd_*` return.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: CInt

  public init(rawValue: CInt) { self.rawValue = rawValue }

  /// The calling thread's `errno`.
  public static var current: Errno { Errno(rawValue: errno) }

  /// `EAGAIN`/`EWOULDBLOCK`.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `EINTR`.
  public static let interrupted = Errno(rawValue: EINTR)
  /// `ENOENT`.
  public static let noSuchFile = Errno(rawValue: ENOENT)
  /// `ECONNREFUSED`.
  public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
  /// `EADDRINUSE`.
  public static let addressInUse = Errno(rawValue: EADDRINUSE)
  /// `EPIPE`.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// `ECONNRESET`.
  public static let connectionReset = Errno(rawValue: ECONNRESET)
  /// `EACCES`.
  public static let permissionDenied = Errno(rawValue: EACCES)
  /// `ETIMEDOUT`.
  public static let timedOut = Errno(rawValue: ETIMEDOUT)
  /// `EEXIST`.
  public static let exists = Errno(rawValue: EEXIST)

  /// `EMFILE` (this process) or `ENFILE` (the system): no file descriptor is left.
  public var isOutOfDescriptors: Bool { rawValue == EMFILE || rawValue == ENFILE }

  /// The error's symbolic name (`EMFILE`), as glibc's `strerrorname_np` gives it; `nil` for a
  /// number it does not know.
  public var name: String? {
    badged_errno_name(rawValue).map { String(cString: $0) }
  }

  /// The C library's text for the error (`strerror`), as systemd's `%m` prints it.
  public var description: String { String(cString: strerror(rawValue)) }
}

/// A failed operation with its cause, phrased the way systemd logs: "Failed to …: …".
public struct SystemError: Error, Sendable, CustomStringConvertible {
  /// What was being done, e.g. "bind to '/run/user/1000/badged/badged.sock'".
  public let operation: String
  public let errno: Errno

  public init(_ operation: String, _ errno: Errno) {
    self.operation = operation
    self.errno = errno
  }

  public var description: String { "Failed to \(operation): \(errno)" }
}

/// Runs a system call that returns -1 and sets `errno` on failure, retrying on `EINTR`.
@inline(__always)
@discardableResult
func retrying<T: BinaryInteger>(_ body: () -> T) -> Result<T, Errno> {
  while true {
    let result = body()
    if result == -1 {
      let e = Errno.current
      if e == .interrupted { continue }
      return .failure(e)
    }
    return .success(result)
  }
}
