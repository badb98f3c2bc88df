import BadgeCore
import Glibc

/// The process environment and identity.
public enum Environment {
  /// The value of a variable, or `nil` when unset or empty.
  public static func value(_ name: String) -> String? {
    guard let raw = getenv(name) else { return nil }
    let value = String(cString: raw)
    return value.isEmpty ? nil : value
  }

  /// Sets or unsets a variable in this process.
  public static func set(_ name: String, _ value: String?) {
    if let value { setenv(name, value, 1) } else { unsetenv(name) }
  }

  /// The running program's file (`/proc/self/exe`), to start it again; `nil` when unknown.
  public static var executablePath: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public static var userID: uid_t { getuid() }
  public static var processID: pid_t { getpid() }

  /// The user's home folder: `$HOME`, else the password database.
  public static var home: String {
    if let home = value("HOME") { return home }
    if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
    return "/"
  }

  /// The monotonic clock in microseconds, outside an event loop.
  public static var monotonicMicroseconds: UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
  }

  /// The CPU time the calling thread has used, user and kernel, in microseconds: what a stretch
  /// of the loop's work cost, whatever else the machine was running meanwhile.
  public static var threadCPUMicroseconds: UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
  }

  /// Terminates the process at once with `status`, without running anything else.
  public static func exit(_ status: CInt) -> Never {
    Glibc.exit(status)
  }
}

extension Environment {
  /// The wall clock in microseconds since the epoch: for times that must survive a reboot
  /// (the end of a timed do-not-disturb), where the monotonic clock starts again.
  public static var wallClockMicroseconds: UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
  }
}

extension Environment {
  /// This machine's name (`gethostname`), the one name the daemon and the bridge both read: the
  /// daemon's ids of forwarded writes and do-not-disturb's changes carry it, and it is the
  /// bridge's `host` (its topics, and the name it publishes this machine's changes under) when
  /// `[mqtt]` sets none, so that both name a change of this machine's the same way.
  ///
  /// The whole name, dots included (the bridge's topics always carried it whole; an id needs
  /// only to be unique), at most 64 bytes (a host in topics, an owner and a `from=` are at most
  /// 64), every byte but `A-Z a-z 0-9 . _ -` made a `-` (a `:` too, which separates an id's
  /// parts); `localhost` when it has none.
  public static var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
    return hostName(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
  }

  /// `hostName` made of the bytes `gethostname` gave.
  public static func hostName(_ raw: [UInt8]) -> String {
    let cleaned = raw.prefix(64).map { ChannelName.isNameByte($0) && $0 != UInt8(ascii: ":") ? $0 : UInt8(ascii: "-") }
    return cleaned.isEmpty ? "localhost" : String(decoding: cleaned, as: UTF8.self)
  }
}
