import Glibc

/// A program the generator starts (a server for the start-up mode, the heal command of the
/// converge mode, mosquitto's clients for the MQTT floor), its path searched, with this
/// process's environment. Its standard output goes to /dev/null unless piped here, so it never
/// holds the pipe a script reads the generator's JSON from; `stdin`/`stdout` ask for a pipe
/// whose other end the generator keeps (`input`, `output`).
struct Spawned {
  let pid: pid_t
  /// The write end of the child's standard input, when piped.
  let input: Int32?
  /// The read end of the child's standard output, when piped.
  let output: Int32?

  init(_ command: [String], stdin pipeIn: Bool = false, stdout pipeOut: Bool = false) {
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var toChild: [Int32] = [-1, -1]
    var fromChild: [Int32] = [-1, -1]
    if pipeIn {
      makePipe(&toChild)
      posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    }
    if pipeOut {
      makePipe(&fromChild)
      posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
    if result != 0 { fail("cannot start \(command[0]): error \(result)") }
    self.pid = pid
    if pipeIn { close(toChild[0]) }
    if pipeOut { close(fromChild[1]) }
    input = pipeIn ? toChild[1] : nil
    output = pipeOut ? fromChild[0] : nil
  }

  /// Waits for the child to exit; its exit status (-1 when a signal ended it).
  @discardableResult
  func wait() -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
  }

  /// Whether it has exited (and is reaped).
  func exited() -> Bool {
    var status: Int32 = 0
    return waitpid(pid, &status, WNOHANG) == pid
  }

  /// Ends it (SIGTERM) and reaps it, closing the pipes.
  func stop() {
    if let input { close(input) }
    if let output { close(output) }
    kill(pid, SIGTERM)
    wait()
  }
}

/// A pipe whose ends close on exec (the child gets only the end duplicated onto its stdin or
/// stdout).
private func makePipe(_ ends: inout [Int32]) {
  if pipe(&ends) != 0 { fail("pipe: errno \(errno)") }
  for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
}
