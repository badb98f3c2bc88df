import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `pipe2(2)`: glibc has it, but Swift's Glibc module is built without _GNU_SOURCE.
@_silgen_name("pipe2")
private func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// A program the tests start, with `posix_spawn`, and reap themselves: the one way every test
/// helper starts a process.
///
/// Foundation's `Process` is not used: under many tests in parallel it was seen to close
/// descriptors it did not own (other tests then failed with `EBADF`), its children inherit a
/// mask that blocks almost every signal (a daemon started that way ignores SIGTERM), and it
/// takes a watched socket closing for its child's exit. Here every pipe end the parent keeps
/// is close-on-exec, so a child started by another test at the same moment never holds it.
final class Child {
  /// Where a standard descriptor of the child goes.
  enum Stream {
    /// `/dev/null`.
    case null
    /// A file, created if needed and appended to.
    case file(String)
    /// A pipe whose other end the test holds (`input` / `output`).
    case pipe
    /// The same as the child's standard output (for standard error).
    case standardOutput
  }

  let pid: pid_t
  /// The write end of the child's standard input, when it is a pipe.
  private(set) var input: Int32
  /// The read end of the child's standard output, when it is a pipe.
  private(set) var output: Int32
  private var status: Int32?

  /// Starts `arguments` (the program as an absolute path or a name on `PATH`) with exactly
  /// `environment`, a clean signal mask and default signal dispositions.
  ///
  /// - Parameter newSession: start it as the leader of a session of its own (`setsid`), so
  ///   that what it starts can be ended together.
  init(
    _ arguments: [String], environment: [String: String], stdin: Stream = .null, stdout: Stream = .null,
    stderr: Stream = .null, newSession: Bool = false
  ) throws {
    let spawned = try Child.spawn(
      arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr, newSession: newSession)
    pid = spawned.pid
    input = spawned.input
    output = spawned.output
  }

  /// Starts a child and leaves waiting for it to the caller (for helpers that manage their
  /// children's ids themselves); returns its id and the test's ends of its pipes (-1 where none).
  static func spawn(
    _ arguments: [String], environment: [String: String], stdin: Stream = .null, stdout: Stream = .null,
    stderr: Stream = .null, newSession: Bool = false
  ) throws -> (pid: pid_t, input: Int32, output: Int32) {
    var input: Int32 = -1
    var output: Int32 = -1
    guard let path = Child.which(arguments[0]) else {
      throw TestFailure("'\(arguments[0])' is not installed: run scripts/install-deps --test (make test and CI do)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var childEnds: [Int32] = []
    defer { childEnds.forEach { close($0) } }
    for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
      switch stream {
      case .null:
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
      case .file(let file):
        posix_spawn_file_actions_addopen(&actions, target, file, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      case .standardOutput:
        posix_spawn_file_actions_adddup2(&actions, 1, target)
      case .pipe:
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw TestFailure("pipe2 failed: errno \(errno)") }
        let (parentEnd, childEnd) = target == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
        childEnds.append(childEnd)
        if target == 0 { input = parentEnd } else { output = parentEnd }
        posix_spawn_file_actions_adddup2(&actions, childEnd, target)  // dup2 clears close-on-exec
      }
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
    // POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF, and glibc's POSIX_SPAWN_SETSID (0x80),
    // which Swift's Glibc module does not export.
    posix_spawnattr_setflags(&attributes, Int16(0x08 | 0x04 | (newSession ? 0x80 : 0)))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard result == 0 else {
      for end in [input, output] where end >= 0 { close(end) }
      throw TestFailure("could not start \(path): error \(result)")
    }
    return (pid, input, output)
  }

  deinit {
    closeParentEnds()
    if isRunning {
      kill(pid, SIGKILL)
      _ = wait()
    }
  }

  /// Whether the child still runs (reaping it if it ended).
  var isRunning: Bool {
    guard status == nil else { return false }
    var raw: Int32 = 0
    guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
    status = raw
    return false
  }

  /// Waits for the child to end; its exit status, or 128 + N when signal N ended it.
  @discardableResult
  func wait() -> Int32 {
    if status == nil {
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
      status = raw
    }
    let raw = status!
    return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
  }

  /// Sends `number` if the child still runs.
  func signal(_ number: Int32) {
    if isRunning { kill(pid, number) }
  }

  /// Everything the child writes to its standard output pipe until it closes it.
  func readAllOutput() -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while output >= 0 {
      let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes += chunk[..<n]
      } else if n == 0 || errno != EINTR {
        break
      }
    }
    return bytes
  }

  /// Closes the test's end of the child's standard input (the child reads end of file).
  func closeInput() {
    if input >= 0 { close(input) }
    input = -1
  }

  /// Closes the test's end of the child's standard output (its next write fails with EPIPE).
  func closeOutput() {
    if output >= 0 { close(output) }
    output = -1
  }

  private func closeParentEnds() {
    closeInput()
    closeOutput()
  }

  /// The full path of `tool`, searched on PATH (and the usual folders).
  static func which(_ tool: String) -> String? {
    if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil }
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin"
    return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
