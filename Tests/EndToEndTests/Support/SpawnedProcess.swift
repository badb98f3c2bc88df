import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child started with `posix_spawn` and reaped by the test itself.
///
/// For programs that close every inherited descriptor before they exec another, as
/// `systemd-socket-activate` does: Foundation's `Process` watches a socket it hands its child
/// and takes that socket closing for the child's exit; it then blocks in `wait4` on a process
/// that is still running, and stalls every other `Process` of the test run.
final class SpawnedProcess {
  let pid: pid_t
  private var status: Int32?

  /// Starts `arguments[0]` (an absolute path) with standard input and output on /dev/null and
  /// standard error appended to `stderrPath`.
  init(_ arguments: [String], environment: [String: String], stderrPath: String) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    guard result == 0 else { throw TestFailure("posix_spawn \(arguments[0]) failed: errno \(result)") }
    self.pid = pid
  }

  var isRunning: Bool {
    guard status == nil else { return false }
    var raw: Int32 = 0
    guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
    status = raw
    return false
  }

  /// Waits for the exit and returns the exit status (128 + N for a signal).
  func wait() -> Int32 {
    if status == nil {
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
      status = raw
    }
    let raw = status!
    return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
  }

  func signal(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  deinit {
    if isRunning {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }
}
