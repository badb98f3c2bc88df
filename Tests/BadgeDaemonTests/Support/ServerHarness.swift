import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeServer
import BadgeSystem
import Glibc
import TestSupport

@testable import BadgeDaemon

/// The daemon's real server (`Server`: its connections, outbox, acceptor and deadlines) on a real
/// event loop, driven by hand, as swift-nio's `EmbeddedChannel` drives a pipeline: clients are
/// socket pairs (or connect to the real listening socket), the turn's clock is the test's
/// (`ManualTurnClock`: the core's turn and the deadlines read it), the deadlines' alarm is rung
/// by the harness when the clock has passed it, and the loop turns one turn at a time, never
/// waiting. So what a turn does, and when a deadline comes, is exact.
final class ServerHarness {
  let clock = ManualTurnClock()
  let alarm = ManualAlarm()
  let log = LogLines()
  let loop: EventLoop
  let server: Server
  /// Where the listening socket is (a folder of the harness's own).
  let listenerPath: String
  private let folder: String
  private let listener: FileDescriptor
  /// Failures the next accepts report before the listener is asked (EMFILE, …), in order.
  var acceptFailures: [Errno] = []
  /// How many times the acceptor asked for a connection.
  private(set) var accepts = 0

  var core: DaemonCore { server.core }

  /// What the server logged, but the turn timer's lines (which depend on the machine's speed).
  var logged: [String] { log.lines.filter { !$0.hasPrefix("Longest turn so far") } }
  var store: Store { server.core.store }

  /// A server with `config`, whose turns may each send to `sendBudget` connections without a
  /// reply (the daemon's budget is timed; a test's is counted, the same on every machine).
  init(config: DaemonConfig = DaemonConfig(), sendBudget: Outbox.Budget = .unlimited) throws {
    var template = Array("/tmp/badged-harness.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno.current }
    folder = String(cString: made)
    listenerPath = folder + "/badged.sock"
    listener = try UnixSocket.listen(path: listenerPath)
    loop = try EventLoop()
    var failures: () -> Errno? = { nil }
    server = try Server(
      loop: loop, config: config, listener: listener,
      logger: Logger(level: .debug, sink: log), clock: clock, alarm: alarm,
      accept: { fd throws(Errno) in
        if let failure = failures() { throw failure }
        return try UnixSocket.accept(fd)
      }, sendBudget: sendBudget)
    failures = { [unowned self] in
      accepts += 1
      return acceptFailures.isEmpty ? nil : acceptFailures.removeFirst()
    }
  }

  deinit {
    server.stopAccepting()
    server.closeAll()
    listener.close()
    unlink(listenerPath)
    rmdir(folder)
  }

  // MARK: - Clients

  /// A client on a socket pair, admitted as the acceptor admits one of this user's, in a turn
  /// of its own: what it sent already (`text`) is read at once. `sendBuffer` bounds what the
  /// server's end of the pair holds unread (`SO_SNDBUF`; the kernel doubles it).
  func connect(sending text: String = "", sendBuffer: CInt? = nil) throws -> Client {
    var fds: [CInt] = [-1, -1]
    let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw Errno.current }
    if var size = sendBuffer {
      setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<CInt>.size))
    }
    let client = Client(fd: FileDescriptor(rawValue: fds[1]))
    if !text.isEmpty { try client.send(text) }
    client.connection = try server.connections.admit(FileDescriptor(rawValue: fds[0]), pid: getpid())
    server.endTurn()
    return client
  }

  /// `count` clients that each watch `request` (`WATCH …`), their snapshots read.
  func watchers(_ count: Int, _ request: String = "WATCH") throws -> [Client] {
    let watchers = try (0..<count).map { _ in try connect(sending: request + "\n") }
    for watcher in watchers { _ = try watcher.lines() }
    return watchers
  }

  /// A client connected to the listening socket: the acceptor takes it in a later turn.
  func connectToListener() throws -> Client {
    Client(fd: try UnixSocket.connect(path: listenerPath, nonBlocking: true))
  }

  /// Every open connection, in the order they were admitted.
  var connections: [Connection] { server.connections.open.sorted { $0.id < $1.id } }

  // MARK: - Turns

  /// Runs one turn without waiting, as the daemon's loop would run it next: the deadlines due at
  /// the clock's instant first (sd-event dispatches its timer before the poll set is served),
  /// else one turn of the poll set, which its post handler ends. Returns whether anything ran.
  @discardableResult
  func turn() throws -> Bool {
    if let due = alarm.deadline, due <= clock.now {
      alarm.ring()
      server.endTurn()
      return true
    }
    return try loop.runOnce(timeout: 0)
  }

  /// Runs turns until one serves nothing (at most `limit`); returns how many ran.
  @discardableResult
  func settle(limit: Int = 1000) throws -> Int {
    var turns = 0
    while turns < limit, try turn() { turns += 1 }
    return turns
  }

  /// Moves the clock `microseconds` on; the deadlines that come due run in the next `turn()`.
  func advance(by microseconds: UInt64) {
    clock.now += microseconds
  }
}

/// The deadlines' alarm, rung by the harness: it keeps what it was last set to, and counts how
/// often it was set (each a system call on the daemon's timer).
final class ManualAlarm: DeadlineAlarm {
  var ring: () -> Void = {}
  private(set) var deadline: UInt64?
  private(set) var sets = 0

  func set(_ deadline: UInt64?) {
    self.deadline = deadline
    sets += 1
  }
}

/// The test's end of a connection: what it sends, and the lines it has been sent.
final class Client {
  let fd: FileDescriptor
  /// The server's end, when the harness admitted it.
  fileprivate(set) var connection: Connection?
  /// The start of a line not ended yet.
  private var partial: [UInt8] = []
  /// Whether the server closed the connection (a read found its end).
  private(set) var isClosed = false

  init(fd: FileDescriptor) {
    self.fd = fd
  }

  deinit { fd.close() }

  /// Sends `text` as it is (lines end in "\n" where the test writes them).
  func send(_ text: String) throws {
    try fd.writeAll(Array(text.utf8), socket: true)
  }

  /// The lines the server has sent since the last call, read without waiting.
  func lines() throws -> [String] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    reading: while true {
      let result = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try fd.read(into: raw) }
      switch result {
      case .processed(let n): received += buffer[..<n]
      case .endOfFile:
        isClosed = true
        break reading
      case .wouldBlock: break reading
      }
    }
    partial += received
    guard let last = partial.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
    let complete = partial[...last]
    partial.removeSubrange(...last)
    return complete.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Reads what the server sent and tells whether it closed the connection.
  func closed() throws -> Bool {
    _ = try lines()
    return isClosed
  }

  /// Shuts the client's sending down (end of input for the server), its reading left open.
  func endInput() {
    shutdown(fd.rawValue, CInt(SHUT_WR))
  }
}
