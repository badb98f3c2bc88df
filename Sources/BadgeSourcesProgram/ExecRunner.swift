import BadgeHooks
import BadgeLog
import BadgeSystem
import Glibc

/// One run of an `exec` source's command, on the event loop and never blocking it.
///
/// The command (already split, as hooks are: no shell) leads a process group of its own, so
/// that a timeout or a stop reaches whatever it started; its standard input is `/dev/null` and
/// its environment only `environment(source:channel:)`. Its standard output is the answer,
/// bounded: `once` keeps at most `maxBytes` (4 KiB) of a run, `follow` hands on each line as
/// it comes and refuses a line over `maxLineBytes` (256): past the bound the read end is
/// closed and the group ended, so a command printing 1 GB costs 4 KiB. Its standard error is
/// only logged, cut into lines by `HookOutputLines` as the daemon's hooks are. Ending the group
/// is SIGTERM, then SIGKILL `killDelayMs` later if any of it is left. The child is reaped by an
/// sd-event child source (SIGCHLD must be blocked, as `Signals.block` does at start); what it
/// left in the pipe is read then, and whatever of its group is still running is killed, so a
/// run leaves neither a zombie nor a straggler holding the pipe.
public final class ExecRunner {
  /// What is kept of the command's standard output.
  public enum Mode: Equatable, Sendable {
    /// A count per run: the whole output, up to `maxBytes`.
    case once(maxBytes: Int = ExecRunner.maxRunBytes)
    /// A long-running command printing one count a line: each line handed on, up to
    /// `maxLineBytes` each.
    case follow(maxLineBytes: Int = ExecRunner.maxLineBytes)
  }

  /// How a run ended.
  public enum Ending: Equatable, Sendable {
    /// The command exited with this status.
    case exited(CInt)
    /// A signal that was not ours ended it.
    case killed(signal: CInt)
    /// It outlived its timeout and was ended.
    case timedOut
    /// It printed more than its mode allows and was ended.
    case printedTooMuch
    /// `stop()` ended it (the source stopped or was reloaded).
    case stopped
  }

  /// A run that ended: what it printed (in `follow` mode only a last line without its line
  /// feed, the others having been handed on) and how it ended.
  public struct Finished: Equatable, Sendable {
    public var output: [UInt8]
    public var ending: Ending

    public init(output: [UInt8], ending: Ending) {
      self.output = output
      self.ending = ending
    }
  }

  /// Standard output kept of one run (design §5).
  public static let maxRunBytes = 4096
  /// Bytes of one line of a `follow` command.
  public static let maxLineBytes = 256
  /// How long a group has between SIGTERM and SIGKILL.
  public static let killDelayMs: UInt64 = 2000
  /// `PATH` of every command: the system's programs, not the user's shell's.
  public static let path = "/usr/local/bin:/usr/bin:/bin"

  /// The process id of the command, which is also its process group's.
  public let pid: pid_t
  private let loop: EventLoop
  private let mode: Mode
  private var output: FileDescriptor?
  private var errors: FileDescriptor?
  private var outputSource: IOSource?
  private var errorsSource: IOSource?
  private var child: ChildSource?
  private var timeout: TimerSource?
  private var killTimer: TimerSource?
  private var kept: [UInt8] = []
  private var errorLines = HookOutputLines()
  /// Why we ended the group, once we did.
  private var endedBecause: Ending?
  private let onLine: ([UInt8]) -> Void
  private let onError: (Logger.Level, String) -> Void
  private var onFinish: ((Finished) -> Void)?

  /// Starts `command` now.
  ///
  /// - Parameters:
  ///   - environment: its whole environment (`environment(source:channel:)`).
  ///   - timeoutMs: how long it may run before its group is ended; `nil` for none (`follow`).
  ///   - onLine: each complete line of a `follow` command, without its line feed.
  ///   - onError: each line it prints on standard error, with the priority of its `<N>` prefix.
  ///   - onFinish: once, after the command was reaped and its output read.
  /// - Throws: `SystemError` when it cannot start (a missing program is `ENOENT`).
  public init(
    loop: EventLoop, command: [String], environment: [String], mode: Mode, timeoutMs: UInt64?,
    onLine: @escaping ([UInt8]) -> Void = { _ in }, onError: @escaping (Logger.Level, String) -> Void = { _, _ in },
    onFinish: @escaping (Finished) -> Void
  ) throws(SystemError) {
    self.loop = loop
    self.mode = mode
    self.onLine = onLine
    self.onError = onError
    self.onFinish = onFinish
    let outputPipe = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    let errorsPipe: (read: FileDescriptor, write: FileDescriptor)
    do {
      errorsPipe = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    } catch {
      outputPipe.read.close()
      outputPipe.write.close()
      throw error
    }
    defer {
      outputPipe.write.close()
      errorsPipe.write.close()
    }
    do {
      pid = try ChildProcess.spawn(
        command, environment: environment, output: .separate(output: outputPipe.write, errors: errorsPipe.write),
        ownProcessGroup: true)
    } catch {
      outputPipe.read.close()
      errorsPipe.read.close()
      throw error
    }
    output = outputPipe.read
    errors = errorsPipe.read
    do {
      outputSource = try loop.addIO(fd: outputPipe.read, events: .readable) { [unowned self] _ in readOutput() }
      errorsSource = try loop.addIO(fd: errorsPipe.read, events: .readable) { [unowned self] _ in readErrors() }
      child = try loop.addChild(pid) { [unowned self] ending in reaped(ending) }
      if let timeoutMs {
        timeout = try loop.addTimer(at: loop.now + timeoutMs * 1000, accuracy: 10_000) { [unowned self] in
          endGroup(because: .timedOut)
        }
      }
    } catch {
      ChildProcess.signalGroup(pid, SIGKILL)
      var status: CInt = 0
      while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
      closeOutput()
      closeErrors()
      throw error
    }
  }

  deinit {
    // A runner dropped mid-run takes its group with it.
    if onFinish != nil { ChildProcess.signalGroup(pid, SIGKILL) }
    closeOutput()
    closeErrors()
    child?.cancel()
    timeout?.cancel()
    killTimer?.cancel()
  }

  /// Ends the run (a stopped or reloaded source): SIGTERM to its group, SIGKILL later.
  public func stop() {
    endGroup(because: .stopped)
  }

  /// The environment of `source`'s command writing `channel`: `PATH` fixed, `LANG=C.UTF-8`,
  /// `HOME`, `USER`, `LOGNAME` and `XDG_RUNTIME_DIR` as this process has them, and
  /// `BADGED_SOURCE` and `BADGED_CHANNEL`; nothing else of this process's.
  public static func environment(
    source: String, channel: String, inherited: [String] = ChildProcess.currentEnvironment
  ) -> [String] {
    let passed = ["HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR"]
    var entries = ["PATH=\(path)"]
    for name in passed {
      if let entry = inherited.last(where: { $0.hasPrefix(name + "=") }) { entries.append(entry) }
    }
    return entries + ["LANG=C.UTF-8", "BADGED_SOURCE=\(source)", "BADGED_CHANNEL=\(channel)"]
  }

  // MARK: - Output

  private func readOutput() {
    guard let fd = output else { return }
    switch Self.drain(fd, { take($0) }) {
    case .wouldBlock: break
    case .ended: closeOutput()  // the end, or an error: nothing more comes
    case .refused:
      closeOutput()
      endGroup(because: .printedTooMuch)
    }
  }

  /// How a drain of a pipe stopped.
  private enum Drained { case wouldBlock, ended, refused }

  /// Reads `fd` until it would block, ends or fails, handing each part read to `take`, which
  /// refuses more by returning false.
  private static func drain(_ fd: FileDescriptor, _ take: (UnsafeRawBufferPointer) -> Bool) -> Drained {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let result = buffer.withUnsafeMutableBytes { raw in try? fd.read(into: raw) }
      guard case .processed(let n) = result, n > 0 else {
        if case .wouldBlock = result { return .wouldBlock }
        return .ended
      }
      guard buffer.withUnsafeBytes({ take(UnsafeRawBufferPointer(rebasing: $0[..<n])) }) else { return .refused }
    }
  }

  /// Keeps `bytes` as the mode says; false once the command printed more than it may.
  private func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    switch mode {
    case .once(let maxBytes):
      let room = maxBytes - kept.count
      kept += bytes.prefix(room)
      return bytes.count <= room
    case .follow(let maxLineBytes):
      var rest = bytes[...]
      while let newline = rest.firstIndex(of: 0x0A) {
        kept += rest[..<newline]
        guard kept.count <= maxLineBytes else { return false }
        onLine(kept)
        kept = []
        rest = rest[(newline + 1)...]
      }
      kept += rest
      return kept.count <= maxLineBytes
    }
  }

  private func readErrors() {
    guard let fd = errors else { return }
    let drained = Self.drain(fd) { bytes in
      errorLines.feed(bytes, onError)
      return true
    }
    if drained != .wouldBlock { closeErrors() }
  }

  private func closeOutput() {
    outputSource?.cancel()
    outputSource = nil
    output?.close()
    output = nil
  }

  /// Closes standard error's pipe, handing on a last line without its line feed.
  private func closeErrors() {
    guard errors != nil else { return }
    errorLines.finish(onError)
    errorsSource?.cancel()
    errorsSource = nil
    errors?.close()
    errors = nil
  }

  // MARK: - Ending

  /// SIGTERM to the whole group now, SIGKILL `killDelayMs` later; the first reason sticks.
  private func endGroup(because reason: Ending) {
    guard onFinish != nil, endedBecause == nil else { return }
    endedBecause = reason
    timeout?.cancel()
    ChildProcess.signalGroup(pid, SIGTERM)
    killTimer = try? loop.addTimer(at: loop.now + Self.killDelayMs * 1000, accuracy: 10_000) { [unowned self] in
      ChildProcess.signalGroup(pid, SIGKILL)
    }
  }

  /// The command was reaped: what it left in the pipes is read, its group's stragglers
  /// killed, and the run handed on.
  private func reaped(_ ending: ChildProcess.Ending) {
    readOutput()
    readErrors()
    ChildProcess.signalGroup(pid, SIGKILL)
    closeOutput()
    closeErrors()
    timeout?.cancel()
    killTimer?.cancel()
    child?.cancel()
    let finished: Ending
    switch (endedBecause, ending) {
    case (.some(let reason), _): finished = reason
    case (nil, .exited(let status)): finished = .exited(status)
    case (nil, .killed(let signal)): finished = .killed(signal: signal)
    }
    guard let onFinish else { return }
    self.onFinish = nil
    onFinish(Finished(output: kept, ending: finished))
  }
}
