import Glibc

/// The most files a process may have open (`RLIMIT_NOFILE`), for a server that holds a
/// descriptor per client: systemd starts services with a soft limit of 1,024 and a hard one of
/// 524,288, and a program that serves thousands of connections raises its own soft limit to
/// the hard one (as systemd's own documentation of `LimitNOFILE=` asks of such programs).
public enum OpenFileLimit {
  /// Raises the soft limit to the hard limit; the soft limit afterwards (unchanged when the
  /// kernel refuses).
  @discardableResult
  public static func raiseToHard() -> UInt64 {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
    let soft = limit.rlim_cur
    limit.rlim_cur = limit.rlim_max
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return UInt64(soft) }
    return UInt64(limit.rlim_cur)
  }
}
