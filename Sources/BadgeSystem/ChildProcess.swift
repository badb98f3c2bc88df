import Glibc

/// Starting other programs: the app launchers `badgectl open` falls back to, and `badgectl
/// open` itself from a watcher's click.
///
/// Children start with a clean signal mask and default signal dispositions (the event loops
/// block the signals they read through signalfd), in this process's environment, with
/// standard input and output on `/dev/null` so nothing they print reaches a status bar.
public enum ChildProcess {
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

  private static func spawn(_ arguments: [String]) throws(SystemError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    // POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    posix_spawnattr_setflags(&attributes, Int16(0x08 | 0x04))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    guard result == 0 else { throw SystemError("start '\(arguments[0])'", Errno(rawValue: result)) }
    return pid
  }
}
