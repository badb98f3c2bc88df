import CSystemd
import Glibc

/// Starting programs without a shell, and learning when they end.
public enum ChildProcess {
  /// How a child ended.
  public enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(CInt)
    /// A signal ended it.
    case killed(signal: CInt)
  }

  /// Starts `words[0]` (looked up in `PATH` unless it has a `/`) with `words` as its arguments
  /// and `environment` (`NAME=value` entries) as its whole environment, with `posix_spawnp`: no
  /// shell. The child gets `/dev/null` as standard input and the daemon's standard output and
  /// error, a process group of its own (so that `kill` reaches whatever it starts), no blocked
  /// signals, and the default action for signals the daemon ignores.
  ///
  /// - Returns: the child's process id (its process group id too).
  /// - Throws: `SystemError` when it cannot start (a missing program is `ENOENT`).
  public static func spawn(_ words: [String], environment: [String]) throws(SystemError) -> pid_t {
    precondition(!words.isEmpty, "a command has a program")
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGXFSZ, SIGHUP, SIGINT, SIGTERM, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = words.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, words[0], &actions, &attributes, argv, envp)
    guard result == 0 else {
      throw SystemError("start '\(words[0])'", Errno(rawValue: result))
    }
    return pid
  }

  /// Sends `signal` to the process group `pid` leads (a spawned child and what it started).
  public static func signalGroup(_ pid: pid_t, _ signal: CInt) {
    kill(-pid, signal)
  }

  /// The process's environment as `NAME=value` entries.
  public static var currentEnvironment: [String] {
    var entries: [String] = []
    var p = environ
    while let entry = p.pointee {
      entries.append(String(cString: entry))
      p += 1
    }
    return entries
  }
}

extension EventLoop {
  /// Calls `handler` once when the child `pid` exits or is killed, after reaping it
  /// (`sd_event_add_child` with `WEXITED`). SIGCHLD must be blocked first (`Signals.block`),
  /// before any thread starts.
  public func addChild(
    _ pid: pid_t, _ handler: @escaping (ChildProcess.Ending) -> Void
  ) throws(SystemError) -> ChildSource {
    let source = ChildSource(handler: handler)
    var raw: OpaquePointer?
    let thunk: sd_event_child_handler_t = { _, info, userdata in
      let source = Unmanaged<ChildSource>.fromOpaque(userdata!).takeUnretainedValue()
      let ending: ChildProcess.Ending
      if let info, info.pointee.si_code == CLD_EXITED {
        ending = .exited(info.pointee._sifields._sigchld.si_status)
      } else {
        ending = .killed(signal: info?.pointee._sifields._sigchld.si_status ?? 0)
      }
      withExtendedLifetime(source) { source.childHandler(ending) }
      return 0
    }
    try checkSD(
      sd_event_add_child(self.raw, &raw, pid, WEXITED, thunk, source.userdata), "watch child \(pid)")
    source.raw = raw
    return source
  }
}

/// A watch on one child process; active until it fires, `cancel()` or release.
public final class ChildSource: EventSource {
  let childHandler: (ChildProcess.Ending) -> Void

  init(handler: @escaping (ChildProcess.Ending) -> Void) {
    childHandler = handler
    super.init(handler: {})
  }
}
