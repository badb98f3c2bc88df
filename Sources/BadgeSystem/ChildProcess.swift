import CSystemd
import Glibc

/// Starting other programs without a shell: the app launchers `badgectl open` falls back to,
/// `badgectl open` itself from a watcher's click, and the daemon's feedback hooks.
///
/// Children start with a clean signal mask and default signal dispositions (the event loops
/// block the signals they read through signalfd, and the daemon ignores SIGPIPE), with
/// standard input on `/dev/null`.
public enum ChildProcess {
  /// Where a child's standard output goes, and its standard error (shared for `null`).
  public enum Output: Sendable {
    /// `/dev/null`, so nothing it prints reaches a status bar; standard error is shared.
    case null
    /// Both to this descriptor (the daemon's hooks: a journal stream or a pipe it reads),
    /// never to this process's own.
    case descriptor(FileDescriptor)
    /// Standard output and standard error each to its own descriptor (the write ends of two
    /// pipes), for a command whose output is its answer and whose errors are only logged.
    case separate(output: FileDescriptor, errors: FileDescriptor)
  }

  /// How a child ended.
  public enum Ending: Equatable, Sendable {
    /// It exited with this status.
    case exited(CInt)
    /// A signal ended it.
    case killed(signal: CInt)
  }

  /// Starts `arguments` (a program found on `PATH`, or a path) and waits for it.
  ///
  /// - Returns: its exit status, or 128 + N when signal N ended it.
  /// - Throws: `SystemError` when it cannot be started.
  public static func run(_ arguments: [String]) throws(SystemError) -> CInt {
    let pid = try spawn(arguments)
    var status: CInt = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// Starts `arguments` and does not wait for it. Call `reapAutomatically()` once first, so
  /// that ended children do not linger.
  public static func start(_ arguments: [String]) throws(SystemError) {
    _ = try spawn(arguments)
  }

  /// Lets the kernel reap this process's children as they end (`SIGCHLD` ignored).
  public static func reapAutomatically() {
    Signals.ignore(SIGCHLD)
  }

  /// Whether `program` is an executable file on `PATH`.
  public static func isInstalled(_ program: String) -> Bool {
    (Environment.value("PATH") ?? "/usr/bin:/bin").split(separator: ":").contains {
      access("\($0)/\(program)", X_OK) == 0
    }
  }

  /// Starts `arguments[0]` (looked up in `PATH` unless it has a `/`) with `posix_spawnp`.
  ///
  /// - Parameters:
  ///   - environment: its whole environment as `NAME=value` entries; this process's without it.
  ///   - output: where its standard output (and error) go.
  ///   - ownProcessGroup: whether it leads a process group of its own, so that `signalGroup`
  ///     reaches whatever it starts.
  /// - Returns: the child's process id.
  /// - Throws: `SystemError` when it cannot start (a missing program is `ENOENT`).
  public static func spawn(
    _ arguments: [String], environment: [String]? = nil, output: Output = .null, ownProcessGroup: Bool = false
  ) throws(SystemError) -> pid_t {
    precondition(!arguments.isEmpty, "a command has a program")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    switch output {
    case .null:
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    case .descriptor(let fd):
      // dup2 clears close-on-exec on the copies only: the descriptor itself stays this
      // process's, and no other child inherits it.
      posix_spawn_file_actions_adddup2(&actions, fd.rawValue, 1)
      posix_spawn_file_actions_adddup2(&actions, fd.rawValue, 2)
    case .separate(let output, let errors):
      posix_spawn_file_actions_adddup2(&actions, output.rawValue, 1)
      posix_spawn_file_actions_adddup2(&actions, errors.rawValue, 2)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownProcessGroup {
      posix_spawnattr_setpgroup(&attributes, 0)
      flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer {
      argv.forEach { free($0) }
      envp?.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result: CInt
    if var envp {
      result = envp.withUnsafeMutableBufferPointer {
        posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, $0.baseAddress)
      }
    } else {
      result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    }
    guard result == 0 else { throw SystemError("start '\(arguments[0])'", Errno(rawValue: result)) }
    return pid
  }

  /// Sends `signal` to the process group `pid` leads (a child spawned with its own group, and
  /// what it started).
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
    mustPrepare = true  // without a pidfd, sd-event looks for the child in its next prepare
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
