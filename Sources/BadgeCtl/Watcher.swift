import BadgeCore
import BadgeProtocol
import BadgeSystem
import Glibc

/// `badgectl watch`: follows the daemon's push stream forever.
///
/// It prints the snapshot `WATCH` answers with, then every event. When the daemon goes away it
/// prints the last known states as offline and reconnects with exponential backoff (0.1 s
/// doubling to 5 s), printing the fresh snapshot once it is back. It exits only on SIGTERM,
/// SIGINT or SIGHUP, or when its reader goes away.
final class Watcher {
  private let socket: String
  private let patterns: [ChannelPattern]
  private let format: SnapshotFormat
  private let loop: EventLoop

  private var fd: FileDescriptor?
  private var source: IOSource?
  private var reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)
  private var retryTimer: TimerSource?
  private var signalSources: [EventSource] = []
  private var outputWatch: IOSource?

  /// Every channel seen, by name, in the order first seen.
  private var known: [String: ChannelSnapshot] = [:]
  private var order: [String] = []
  /// Whether the last thing printed was an online state; offline is printed once per outage.
  private var online: Bool?
  private var backoff: UInt64 = Watcher.minBackoff

  static let minBackoff: UInt64 = 100_000
  static let maxBackoff: UInt64 = 5_000_000

  init(socket: String, patterns: [ChannelPattern], format: SnapshotFormat) throws(CtlError) {
    self.socket = socket
    self.patterns = patterns
    self.format = format
    Signals.block([SIGTERM, SIGINT, SIGHUP])
    do {
      loop = try EventLoop()
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
  }

  func run() throws(CtlError) {
    do {
      for signal in [SIGTERM, SIGINT, SIGHUP] {
        signalSources.append(try loop.addSignal(signal) { [unowned self] in loop.exit(code: 0) })
      }
      retryTimer = try loop.addTimer(at: UInt64.max) { [unowned self] in connect() }
      retryTimer?.disarm()
      // A pipe to a bar reports an error as soon as the bar closes it: exit then, not at the
      // next write. (A terminal or file cannot be watched; then EPIPE on write ends us.)
      outputWatch = try? loop.addIO(fd: .standardOutput, events: []) { [unowned self] _ in loop.exit(code: 0) }
      connect()
      _ = try loop.run()
    } catch {
      throw .unreachable(socket: socket, cause: error.description)
    }
  }

  // MARK: - Connection

  private func connect() {
    let fd: FileDescriptor
    do {
      fd = try UnixSocket.connect(path: socket)
      try fd.setNonBlocking()
      let request = "WATCH" + patterns.map { " " + $0.description }.joined() + "\n"
      try fd.writeAll(request.utf8, socket: true)
    } catch {
      disconnected()
      return
    }
    self.fd = fd
    do {
      source = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in readable() }
    } catch {
      disconnected()
    }
  }

  private func readable() {
    guard let fd else { return }
    var ended = false
    while !ended {
      var result = IOResult.wouldBlock
      _ = reader.read { space in
        do throws(Errno) {
          result = try fd.read(into: space)
        } catch {
          result = .endOfFile
        }
        if case .processed(let n) = result { return n }
        return 0
      }
      reader.forEachFrame { frame in
        if case .line(let bytes) = frame { received(ReplyLine(String(decoding: bytes, as: UTF8.self))) }
        return true
      }
      switch result {
      case .processed: continue
      case .wouldBlock: return
      case .endOfFile: ended = true
      }
    }
    disconnected()
  }

  private func received(_ line: ReplyLine) {
    switch line {
    case .state(let snapshot), .event(let snapshot):
      remember(snapshot)
      online = true
      Output.line(format.line(snapshot))
    case .ok:
      backoff = Watcher.minBackoff  // the snapshot is complete: this connection counts as good
      online = true
    case .error(let code, let message):
      Output.error(CtlError.daemon(code: code, message: message).message)
      Environment.exit(CtlError.ExitStatus.daemonError)
    case .data:
      break
    }
  }

  private func disconnected() {
    source?.cancel()
    source = nil
    fd?.close()
    fd = nil
    reader = LineReader(maxLineLength: 1 << 16, capacity: 1 << 18)
    if online != false {
      online = false
      printOffline()
    }
    retryTimer?.schedule(at: loop.now + backoff)
    backoff = min(backoff * 2, Watcher.maxBackoff)
  }

  // MARK: - State

  private func remember(_ snapshot: ChannelSnapshot) {
    if known.updateValue(snapshot, forKey: snapshot.channel) == nil { order.append(snapshot.channel) }
  }

  /// The last known state of every channel, marked offline; the watched names themselves when
  /// nothing is known yet (a glob stands for its channels).
  private func printOffline() {
    var names = order
    if names.isEmpty { names = patterns.isEmpty ? ["*"] : patterns.map(\.description) }
    for name in names {
      var snapshot = known[name]
        ?? ChannelSnapshot(channel: name, count: 0, label: "", dot: false, pulseMs: 0, muted: false, seq: 0)
      snapshot.online = false
      snapshot.pulseMs = 0
      Output.line(format.line(snapshot))
    }
  }
}
