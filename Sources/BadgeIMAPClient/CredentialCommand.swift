import BadgeSystem
import Glibc

/// A command that prints a password or a token, run to its end on the calling thread (a
/// connection's own): argv as written (no shell), standard input `/dev/null`, a process group
/// of its own so that a timeout kills whatever it started, and a clean environment with only
/// what password managers need (`keptVariables`), so the program's own settings do not leak
/// into it. The answer is the first line of its standard output, of at most
/// `Credentials.maxBytes`; the first line of its standard error explains a failure.
enum CredentialCommand {
  /// The variables a command is given from this process's environment, where set: its home,
  /// the session bus and runtime folder (secret-tool, KeePassXC), the display (a pinentry's
  /// prompt), GnuPG's and pass's folders.
  static let keptVariables = [
    "HOME", "PATH", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY", "GNUPGHOME",
    "PASSWORD_STORE_DIR",
  ]
  /// `PATH` when this process has none.
  static let defaultPath = "/usr/local/bin:/usr/bin:/bin"
  /// How long a wait on the pipes lasts at most before the child is looked for again: it may
  /// have exited with a child of its own still holding them.
  private static let pipeWaitMs: CInt = 100
  /// How often an exited-but-not-yet-reaped child is looked for once its output has ended.
  private static let reapPollMs: CInt = 5

  static func firstLine(_ argv: [String], timeoutMs: Int) throws(CredentialError) -> [UInt8] {
    precondition(!argv.isEmpty, "a command has a program")
    let command = argv.joined(separator: " ")
    let deadline = Deadline(afterMs: timeoutMs)
    let (pid, output, errors) = try start(argv, command: command)
    defer {
      output.close()
      errors.close()
    }
    var printed: [UInt8] = []
    var complaint: [UInt8] = []
    var outputOpen = true
    var errorsOpen = true
    var status: CInt? = nil
    while status == nil {
      // Reaped first, drained after: once the command has exited, all it wrote is in the
      // pipes, and a child it left behind holding them open is not waited for.
      status = reap(pid, wait: false)
      if outputOpen { outputOpen = drain(output, into: &printed) }
      if errorsOpen { errorsOpen = drain(errors, into: &complaint) }
      let tooMuch = printed.count > Credentials.maxBytes
      if tooMuch || (status == nil && deadline.passed) {
        ChildProcess.signalGroup(pid, SIGKILL)
        if status == nil { _ = reap(pid, wait: true) }
        if tooMuch { throw .commandFailed(command: command, reason: "printed more than \(Credentials.maxBytes) bytes") }
        throw .commandTimedOut(command: command, timeoutMs: timeoutMs)
      }
      if status == nil { wait(for: (outputOpen ? [output] : []) + (errorsOpen ? [errors] : []), until: deadline) }
    }
    let reason = Credentials.firstLine(complaint)
    let said = reason.isEmpty ? "" : ": " + String(decoding: reason, as: UTF8.self)
    if let status, status != 0 {
      let how = status >= 128 ? "was killed by signal \(status - 128)" : "exited with status \(status)"
      throw .commandFailed(command: command, reason: how + said)
    }
    let line = Credentials.firstLine(printed)
    guard !line.isEmpty else { throw .commandFailed(command: command, reason: "printed nothing" + said) }
    return line
  }

  /// Starts `argv` with its output and errors into two pipes, read ends kept here.
  private static func start(
    _ argv: [String], command: String
  ) throws(CredentialError) -> (pid_t, FileDescriptor, FileDescriptor) {
    do {
      let output = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
      let errors = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
      defer {
        output.write.close()
        errors.write.close()
      }
      let pid = try ChildProcess.spawn(
        argv, environment: environment(), output: .separate(output: output.write, errors: errors.write),
        ownProcessGroup: true)
      return (pid, output.read, errors.read)
    } catch {
      throw .commandFailed(command: command, reason: "cannot start: \(error.errno)")
    }
  }

  /// `keptVariables` as this process has them, `PATH` always.
  static func environment() -> [String] {
    var entries = keptVariables.compactMap { name in Environment.value(name).map { "\(name)=\($0)" } }
    if Environment.value("PATH") == nil { entries.append("PATH=\(defaultPath)") }
    return entries
  }

  /// Waits until one of `ends` is readable, or a little while (the child is looked for
  /// between waits), never past the deadline.
  private static func wait(for ends: [FileDescriptor], until deadline: Deadline) {
    var fds = ends.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    _ = poll(&fds, nfds_t(fds.count), min(ends.isEmpty ? reapPollMs : pipeWaitMs, deadline.pollTimeout))
  }

  /// Reads what `end` holds now into `kept` (at most one byte past the bound, which is how too
  /// much is seen); false once it reached its end.
  private static func drain(_ end: FileDescriptor, into kept: inout [UInt8]) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let result = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try end.read(into: raw) } }
      switch result {
      case .success(.processed(let n)):
        kept += buffer[..<min(n, Credentials.maxBytes + 1 - kept.count)]
        if kept.count > Credentials.maxBytes { return true }
      case .success(.wouldBlock): return true
      case .success(.endOfFile), .failure: return false
      }
    }
  }

  /// The child's exit status (128 + N for signal N), or nil while it runs (`wait` false).
  private static func reap(_ pid: pid_t, wait: Bool) -> CInt? {
    var status: CInt = 0
    while true {
      let result = waitpid(pid, &status, wait ? 0 : WNOHANG)
      if result == -1 && errno == EINTR { continue }
      if result == 0 { return nil }
      if result == -1 { return 127 }  // reaped by someone else: nothing to tell
      return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
  }
}
