import BadgeCore
import BadgeHooks
import BadgeLog
import BadgeSystem
import Glibc

/// Where hooks' standard output and error go: never the daemon's own, which a hook that prints
/// a lot would fill, so that the daemon's next log line waited for its reader.
///
/// Where the daemon logs to journald, each run gets a journal stream of its own
/// (`SYSLOG_IDENTIFIER=badged-hook`, lines at `info` unless they start with `<N>`): journald
/// reads it, and a hook that prints too much waits for journald, not the daemon. Elsewhere, or
/// when journald does not take a stream now, each run gets a pipe the daemon reads on the loop
/// without waiting (`HookOutputRelay`): its lines go through the daemon's log, with the run in
/// front, at most `HookOutputLines.maxLines` of them, the rest counted.
final class HookOutput {
  private let loop: EventLoop
  /// The daemon's log with the hooks' identifier.
  private let logger: Logger
  private let toJournal: Bool
  /// One read's room, shared by every run's pipe.
  fileprivate var buffer = [UInt8](repeating: 0, count: 1 << 16)

  /// The identifier of hooks' lines in the journal.
  static let identifier = "badged-hook"

  init(loop: EventLoop, logger: Logger) {
    self.loop = loop
    var logger = logger
    logger.identifier = HookOutput.identifier
    self.logger = logger
    toJournal = logger.destination == .journal
  }

  /// A new output for `run`: the descriptor to hand the child, which the caller closes once
  /// the child has it, and the relay that reads it, if the daemon does.
  func open(for run: HookRun) throws(SystemError) -> (child: FileDescriptor, relay: HookOutputRelay?) {
    if toJournal, let stream = try? Journald.openStream(identifier: HookOutput.identifier, priority: .info) {
      return (stream, nil)
    }
    let ends = try FileDescriptor.pipe(nonBlockingRead: true, nonBlockingWrite: false)
    do throws(SystemError) {
      return (ends.write, try HookOutputRelay(output: self, input: ends.read, run: run))
    } catch {
      ends.read.close()
      ends.write.close()
      throw error
    }
  }

  fileprivate func watch(_ fd: FileDescriptor, _ relay: HookOutputRelay) throws(SystemError) -> IOSource {
    try loop.addIO(fd: fd, events: .readable) { [unowned relay] _ in relay.readOnce() }
  }

  fileprivate func log(_ level: Logger.Level, _ message: String, _ channel: ChannelName) {
    logger.log(level, message, [.channel(channel)])
  }
}

/// One run's pipe, read on the loop: one read of up to 64 KiB each time it is readable, so a
/// hook that prints without end costs each turn a bounded read; its lines go to the log within
/// `HookOutputLines`' cap.
final class HookOutputRelay {
  private unowned let output: HookOutput
  private var input: FileDescriptor?
  private var watch: IOSource?
  private var lines = HookOutputLines()
  private let channel: ChannelName
  private let event: HookEvent
  /// The child's process id, once it runs: in front of each line.
  var pid: pid_t = 0

  /// Reads at reap beyond this many bytes are left unread: a child of the hook that still
  /// writes is not followed further.
  private static let finalReads = 4

  fileprivate init(output: HookOutput, input: FileDescriptor, run: HookRun) throws(SystemError) {
    self.output = output
    self.input = input
    channel = run.channel
    event = run.event
    watch = try output.watch(input, self)
  }

  deinit { close() }

  /// The pipe is readable: one read.
  fileprivate func readOnce() {
    guard let input else { return }
    let result = output.buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try input.read(into: raw) }
    }
    switch result {
    case .success(.processed(let n)):
      output.buffer.withUnsafeBytes { raw in
        lines.feed(UnsafeRawBufferPointer(rebasing: raw[..<n])) { level, text in relay(level, text) }
      }
    case .success(.wouldBlock): break
    case .success(.endOfFile), .failure: close()
    }
  }

  /// The run was reaped: what it wrote before it ended is read, its last line logged, and the
  /// count of the lines not logged reported; the pipe is closed (whatever it started that still
  /// holds it gets `EPIPE`).
  func finish() {
    for _ in 0..<HookOutputRelay.finalReads where input != nil { readOnce() }
    close()
    lines.finish { level, text in relay(level, text) }
    if lines.dropped > 0 {
      output.log(
        .info,
        "Hook \(event.key) of '\(channel)' (pid \(pid)) printed \(lines.dropped) more line\(lines.dropped == 1 ? "" : "s"); only the first \(HookOutputLines.maxLines) are logged.",
        channel)
    }
  }

  private func relay(_ level: Logger.Level, _ text: String) {
    output.log(level, "Hook \(event.key) of '\(channel)' (pid \(pid)): \(text)", channel)
  }

  private func close() {
    watch?.cancel()
    watch = nil
    input?.close()
    input = nil
  }
}
