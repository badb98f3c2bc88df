import BadgeCore
import BadgeLog
import Glibc
import Synchronization

/// The log's lines on their way out, never waiting for whoever reads them: the loop that
/// writes a line must not stop because a terminal is paused, a log reader stalled or journald
/// is behind.
///
/// Lines go to journald as native entries (`JournalSocket`), or to standard error
/// (`LogStream`), both without waiting. A line that cannot go out now is dropped and counted;
/// the first thing written once lines go out again is the count ("12 log lines dropped while
/// the log was not being read."). When a stream took only the first part of a line, the rest
/// goes out before anything else, so lines are never torn or mixed. Between turns the daemon
/// asks `watchForRoom`, so the count goes out as soon as there is room, not only with the next
/// line.
///
/// Any thread may log: the descriptors, the unwritten rest of a line and the count are behind
/// one lock. Only the loop thread watches for room.
public final class LogOutput: LogSink, Sendable {
  public let destination: Logger.Destination
  private let state: Mutex<State>
  /// The watch for room; only the loop thread touches it (`watchForRoom` and its handler).
  nonisolated(unsafe) private var watch: IOSource?

  /// Lines for `destination`. A test names another descriptor than standard error, or another
  /// path than journald's socket.
  public init(_ destination: Logger.Destination, standardError fd: CInt = 2, journalPath: String = Journald.socketPath)
  {
    self.destination = destination
    let journal = destination == .journal ? JournalSocket(path: journalPath) : nil
    let prefix: Bool
    if case .standardError(let priorityPrefix) = destination { prefix = priorityPrefix } else { prefix = true }
    state = Mutex(State(stream: LogStream(standardError: fd), priorityPrefix: prefix, journal: journal))
  }

  deinit {
    watch?.cancel()
    state.withLock { state in
      state.stream.close()
      state.journal?.close()
    }
  }

  public func write(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field], identifier: String) {
    state.withLock { state in
      state.identifier = identifier
      guard state.catchUp() == .caughtUp, state.put(level, message, fields) else {
        state.dropped += 1
        return
      }
    }
  }

  /// Lines dropped and not yet reported.
  public var droppedCount: Int { state.withLock { $0.dropped } }

  /// When lines were dropped, or a line is half written, watches the descriptor that had no
  /// room and writes the rest and the count as soon as it has; called on the loop thread at
  /// the end of every turn. A descriptor that failed for good (its reader gone) is not
  /// watched: the count then goes out with the next line that does.
  public func watchForRoom(on loop: EventLoop) {
    guard watch == nil, let fd = state.withLock({ $0.isBehind ? $0.blocked : nil }) else { return }
    watch = try? loop.addIO(fd: FileDescriptor(rawValue: fd), events: .writable) { [unowned self] _ in
      roomAppeared()
    }
  }

  private func roomAppeared() {
    guard state.withLock({ $0.catchUp() }) != .wouldBlock else { return }
    watch?.cancel()
    watch = nil
  }

  /// The phrase of the count, exactly.
  static func droppedMessage(_ count: Int) -> String {
    "\(count) log line\(count == 1 ? "" : "s") dropped while the log was not being read."
  }
}

extension LogOutput {
  /// Everything `LogOutput` keeps, behind its lock.
  fileprivate struct State {
    var stream: LogStream
    let priorityPrefix: Bool
    var journal: JournalSocket?
    /// The unwritten end of a line the stream took in part.
    var rest: [UInt8] = []
    var dropped = 0
    /// The identifier of the last line, for the count's entry.
    var identifier = "badged"
    /// The descriptor that last had no room, for `watchForRoom`; `nil` when it failed for good
    /// or cannot be watched (a file).
    var blocked: CInt?

    enum CatchUp { case caughtUp, wouldBlock, failed }

    var isBehind: Bool { dropped > 0 || !rest.isEmpty }

    /// Writes the rest of a half-written line, then the count of dropped lines.
    mutating func catchUp() -> CatchUp {
      if !rest.isEmpty {
        switch writeStream(rest) {
        case .wrote(let n): rest.removeFirst(n)
        case .wouldBlock: return .wouldBlock
        case .failed: return .failed
        }
        if !rest.isEmpty { return .wouldBlock }
      }
      guard dropped > 0 else { return .caughtUp }
      let count = dropped
      dropped = 0
      guard put(.warning, LogOutput.droppedMessage(count), []) else {
        dropped = count
        return blocked == nil ? .failed : .wouldBlock
      }
      return rest.isEmpty ? .caughtUp : .wouldBlock
    }

    /// Writes one message: to journald when it is the destination and takes it, else (journald
    /// gone, or the entry too large for it) to standard error. Returns whether it went out,
    /// whole or with its rest kept in `rest`.
    mutating func put(_ level: Logger.Level, _ message: String, _ fields: [Logger.Field]) -> Bool {
      if journal != nil {
        var entry: [(name: String, value: String)] = [
          ("MESSAGE", message), ("PRIORITY", String(level.rawValue)), ("SYSLOG_IDENTIFIER", identifier),
        ]
        for field in fields { entry.append((field.name, field.value)) }
        switch journal!.send(Journald.entry(entry)) {
        case .sent: return true
        case .wouldBlock:
          blocked = journal!.descriptor
          return false
        case .failed: break  // standard error is the journal's stream too
        }
      }
      guard rest.isEmpty else { return false }
      let line = LogOutput.line(level, message, priorityPrefix: priorityPrefix)
      switch writeStream(line) {
      case .wrote(let n):
        if n < line.count { rest = Array(line[n...]) }
        return true
      case .wouldBlock, .failed: return false
      }
    }

    private mutating func writeStream(_ bytes: [UInt8]) -> LogStream.Written {
      let written = bytes.withUnsafeBytes { stream.write($0) }
      if written == .failed {
        blocked = nil
      } else if written != .wrote(bytes.count) {
        blocked = stream.isWatchable ? stream.descriptor : nil
      }
      return written
    }
  }

  /// A message as a line of standard error: its `<N>` priority first when asked, and every
  /// line break inside it a space (one event, one line: a message quoting client input must
  /// not forge further lines).
  static func line(_ level: Logger.Level, _ message: String, priorityPrefix: Bool) -> [UInt8] {
    var line = priorityPrefix ? "<\(level.rawValue)>" : ""
    line += message.contains(where: \.isNewline) ? String(message.map { $0.isNewline ? " " : $0 }) : message
    line += "\n"
    return Array(line.utf8)
  }
}
