import Foundation

/// The processes one real-bar test starts, each in a session of its own with its output in a
/// log file in the test's folder; stopped in reverse order (SIGTERM, then SIGKILL after 3 s).
///
/// They are started with `posix_spawn` rather than Foundation's `Process`, whose children
/// inherit a mask that blocks almost every signal: a bar started that way ignores SIGTERM,
/// and so do the watchers it starts.
final class Background {
  let folder: TemporaryFolder
  private var started: [(name: String, pid: pid_t)] = []

  init(folder: TemporaryFolder) {
    self.folder = folder
  }

  /// Starts `arguments` (the tool looked up on PATH) with the test's environment plus
  /// `environment`; its output goes to `<name>.log`.
  @discardableResult
  func start(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> pid_t {
    let pid = try Background.spawn(arguments, environment: environment, output: folder.file("\(name).log"))
    started.append((name, pid))
    return pid
  }

  /// What `name` wrote so far.
  func log(_ name: String) -> String {
    (try? String(contentsOfFile: folder.file("\(name).log"), encoding: .utf8)) ?? ""
  }

  /// Runs `arguments` to completion with the test's environment plus `environment` and returns
  /// its output; fails when it exits non-zero.
  @discardableResult
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let output = folder.file("run-\(UUID().uuidString.prefix(8)).log")
    defer { try? FileManager.default.removeItem(atPath: output) }
    let pid = try Background.spawn(arguments, environment: environment, output: output)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw TestFailure("\(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
    }
    return text
  }

  /// Whether `pid` (started here) still runs. A process that ended is left a zombie, not
  /// reaped (`WNOWAIT`): its id, and so its session's, cannot be taken by a new process until
  /// `deinit` has swept the session.
  func isRunning(_ pid: pid_t) -> Bool {
    var info = siginfo_t()
    let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
    return result == 0 && info._sifields._sigchld.si_pid == 0
  }

  /// Stops every process started, the last first: SIGTERM, then SIGKILL if it still runs
  /// after 3 s. What they started in their sessions is left to end by itself (a watcher must
  /// end with its bar, and the tests check that); `deinit` kills whatever remains.
  func stopAll() {
    while let (_, pid) = started.popLast() {
      end(pid)
    }
  }

  /// Stops the process started as `name` (the last one of that name) as `stopAll` does, and
  /// what else runs in its session: a bar restarted in a test leaves nothing of itself behind.
  func stop(_ name: String) {
    guard let index = started.lastIndex(where: { $0.name == name }) else { return }
    let pid = started.remove(at: index).pid
    end(pid)
    kill(-pid, SIGKILL)  // safe: the unreaped leader still holds the session's id
  }

  /// SIGTERM, then SIGKILL if `pid` still runs after 3 s; it is left unreaped (`ended`).
  private func end(_ pid: pid_t) {
    if isRunning(pid) { kill(pid, SIGTERM) }
    if !waitUntil(timeout: 3, { !isRunning(pid) }) {
      kill(pid, SIGKILL)
      _ = waitUntil(timeout: 3) { !isRunning(pid) }
    }
    ended.append(pid)
  }

  /// Session leaders that ended and are not reaped yet.
  private var ended: [pid_t] = []

  deinit {
    stopAll()
    for leader in ended {
      kill(-leader, SIGKILL)  // safe: the unreaped leader still holds the session's id
      var status: Int32 = 0
      waitpid(leader, &status, 0)
    }
  }

  /// Starts `arguments` in a new session with a clean signal mask, standard input from
  /// /dev/null and standard output and error appended to `output`; not reaped (see
  /// `isRunning`). `Child.environment` keeps a bar away from the user's display, compositor,
  /// daemon and tmux server.
  static func spawn(_ arguments: [String], environment: [String: String], output: String) throws -> pid_t {
    try Child.spawn(
      arguments, environment: Child.environment(environment), stdout: .file(output), stderr: .standardOutput,
      newSession: true
    ).pid
  }
}

/// The `badgectl watch` processes still running for the daemon at `socket`: a watcher must
/// end with the bar that started it.
func watchersLeft(socket: String) -> [Int32] {
  let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
  return pids.filter { pid in
    guard let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
      let environment = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    else { return false }
    let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    return arguments.first?.hasSuffix("/badgectl") == true && arguments.contains("watch")
      && variables.contains("BADGED_SOCKET=\(socket)")
  }
}
