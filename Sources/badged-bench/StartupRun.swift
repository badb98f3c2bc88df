import Glibc

/// Start-up to the first answer: spawns the server command, then connects and sends PING as
/// soon as the socket accepts, until the first reply; the time is from just before the spawn.
/// The server is then terminated (SIGTERM) and reaped.
struct StartupRun {
  let options: Options
  let wire: Wire

  func run() {
    let deadline = Deadline(seconds: options.timeoutSeconds)
    let started = monotonicNanos()
    let pid = spawn(options.command)
    let answered = waitForAnswer(socket: options.socket, wire: wire, deadline: deadline) {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { fail("the server exited before answering (status \(status))") }
    }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    serverToKillOnFailure = 0
    emit(
      "{\"mode\":\"startup\",\"protocol\":\"\(wire.kind.rawValue)\",\"first_answer_ms\":\(microseconds((answered.at - started) / 1000)),"
        + "\"attempts\":\(answered.attempts)}")
  }

  /// posix_spawn of the command with this process's environment (the path is searched) and
  /// its standard output on /dev/null, so it does not hold the pipe a script reads our JSON from.
  private func spawn(_ command: [String]) -> pid_t {
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
    if result != 0 { fail("cannot start \(command[0]): error \(result)") }
    serverToKillOnFailure = pid
    return pid
  }
}

/// Connects and sends PING until the first reply that is not an error (the echo server's `OK`
/// counts) (every 200 µs while the socket refuses), and
/// returns when it came and after how many attempts. `between` runs after each refused
/// attempt (to notice a server that died); past the deadline the run fails.
func waitForAnswer(
  socket: String, wire: Wire, deadline: Deadline, between: () -> Void = {}
) -> (at: UInt64, attempts: Int) {
  var attempts = 0
  while true {
    attempts += 1
    if let fd = tryConnectUnix(socket) {
      defer { close(fd) }
      if sendAll(fd, wire.ping) {
        let reply = Array(BlockingLineReader(fd: fd).next().utf8)
        switch reply.withUnsafeBytes({ wire.classify($0) }) {
        case .reply: return (monotonicNanos(), attempts)
        case .error: break  // Redis answers `-LOADING` until its data is loaded: not an answer yet
        case .data: fail("PING: unexpected reply \(String(decoding: reply, as: UTF8.self))")
        }
      }
    }
    between()
    usleep(200)
    deadline.check("no answer on \(socket)")
  }
}
