import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeSystem
import Glibc

/// A program's connection to badged on an sd-event loop (hiredis's async context, with
/// `ClientSession` as its reply parser): every client program talks to the daemon through one.
///
/// - Output is buffered and written as the socket takes it, the socket watched for writing only
///   while some waits, so a write never blocks the loop (the daemon stops reading a client whose
///   replies go unread; a client blocked in a write would never read them).
/// - Input is bounded by the reader's limits (a line over 64 KiB is dropped), and at most
///   `readsPerTurn` reads are made a turn, so a daemon that sends without pause never keeps the
///   loop from the program's other sources.
/// - When the daemon goes away (or restarts, or is not there yet) it reconnects with `Backoff`
///   (each delay drawn from the upper half of its nominal one, so clients cut off together do not
///   come back in the same instant). A connect to a socket-activated daemon's socket starts it.
///   On every connection the session asks again what the program keeps (its first requests, then
///   `WATCH`); the requests in flight when a connection ends get `.connectionLost` (a write with
///   an id may be sent again: an id counts once).
/// - Each change of the link's state is one `LinkHealth` line (up, down with why, back after
///   failed attempts), never one per attempt; the program logs it (`log`) or not.
public final class DaemonClient {
  /// What happens to a request's reply: each of its lines (the status line last), or that the
  /// connection ended before it came.
  public enum Reply {
    case line(ReplyLine)
    case connectionLost
  }

  public typealias ReplyHandler = (Reply) -> Void
  public typealias Session = ClientSession<ReplyHandler>

  /// What the program hears of the connection.
  public enum Event {
    /// A connection is up: the first requests and `WATCH` are on their way; `send` works.
    case connected
    /// A pushed line or a line of the watch stream's snapshot (never `.reply`: replies go to
    /// their requests' handlers).
    case received(Session.Delivery)
    /// An attempt to connect failed, or the connection ended; another attempt is scheduled.
    case disconnected(LinkFailure)
  }

  /// How many reads (of up to the reader's 256 KiB) one turn of the loop makes at most.
  public static let readsPerTurn = 4

  public let socket: String
  private let loop: EventLoop
  private var session: Session
  private var backoff: Backoff
  private var health: LinkHealth
  private var random = SystemRandomNumberGenerator()
  private let onEvent: (Event) -> Void
  private let log: (LinkHealth.Line) -> Void

  private var fd: FileDescriptor?
  private var source: IOSource?
  private var retryTimer: TimerSource?
  private var reader = DaemonClient.makeReader()
  /// Bytes taken from the session and not written yet; the first `sent` of them are written.
  private var pending: [UInt8] = []
  private var sent = 0
  /// Whether this connection counts as up: it had its first `OK` (a daemon that refuses the
  /// connection, `ERR busy`, is a failed attempt), or the program said so (`linkIsUp`).
  private var accepted = false
  private let upAtFirstOK: Bool
  private var stopped = false

  /// - Parameters:
  ///   - socket: the daemon's socket.
  ///   - limit: how many requests sent with `send` may await replies at once.
  ///   - firstRequests: what every connection asks first, before `WATCH` (the bridge's
  ///     `BRIDGE host=`).
  ///   - backoff: the delays between attempts (by default 0.1 s doubling to 5 s).
  ///   - upAtFirstOK: whether a connection counts as up at its first `OK` (or at once when it
  ///     asks nothing first); when false, only once the program says so (`linkIsUp`): the
  ///     bridge's, once the daemon accepted it and its snapshot is in.
  ///   - log: each change of the link's state, once.
  ///   - onEvent: what the program hears (see `Event`).
  public init(
    socket: String, loop: EventLoop, limit: Int, firstRequests: [Session.FirstRequest] = [],
    backoff: Backoff = Backoff(initial: 100_000, maximum: 5_000_000), upAtFirstOK: Bool = true,
    log: @escaping (LinkHealth.Line) -> Void = { _ in }, onEvent: @escaping (Event) -> Void
  ) {
    self.socket = socket
    self.loop = loop
    session = Session(limit: limit, firstRequests: firstRequests)
    self.backoff = backoff
    self.upAtFirstOK = upAtFirstOK
    health = LinkHealth(peer: "badged at \(socket)")
    self.log = log
    self.onEvent = onEvent
  }

  /// Whether a connection is up (requests can be sent).
  public var isConnected: Bool { fd != nil }

  /// Whether `more` requests may be sent now.
  public func hasRoom(for more: Int) -> Bool { session.hasRoom(for: more) }

  /// How many requests await replies.
  public var awaitingCount: Int { session.awaitingCount }

  /// Watches `patterns` (every channel when empty), now and on every connection. With `since`,
  /// each such `WATCH` asks `since=<seq>`: the daemon replays the changes after it when it keeps
  /// them all, else sends the snapshot; `.received(.watching(outcome))` says which
  /// (`.replayed(since:)` or `.reset`). `resume(after:)` moves what later connections ask.
  public func watch(_ patterns: [ChannelPattern], since: UInt64? = nil) {
    session.watch(patterns, since: since)
    flush()
  }

  /// Stops watching (`UNWATCH` now, no `WATCH` on later connections): a connection that wanted
  /// one replay (`watch(_:since:)`) ends it once `.watching` came.
  public func unwatch() {
    session.unwatch()
    flush()
  }

  /// What each later connection's `WATCH` resumes after (`since=<seq>`; `nil`: a snapshot): the
  /// last change the program took, so that a reconnect gets the changes it missed. Sends
  /// nothing now.
  public func resume(after seq: UInt64?) {
    session.resume(after: seq)
  }

  /// Connects now, from inside the loop or before it runs; later attempts are the client's.
  public func start() throws(SystemError) {
    stopped = false
    if retryTimer == nil { retryTimer = try loop.addTimer { [unowned self] in connect() } }
    connect()
  }

  /// Sends `request` (with `id`, when it takes one); `reply` gets its lines. Returns false,
  /// sending nothing, when no connection is up or `limit` requests await replies.
  @discardableResult
  public func send(_ request: Request, id: String? = nil, reply: @escaping ReplyHandler) -> Bool {
    guard session.send(request, id: id, ticket: reply) else { return false }
    flush()
    return true
  }

  /// Sends `WATCH` with `patterns` as a request of its own (`ClientSession.watchAlso`): `reply`
  /// gets the snapshot's lines. Returns false as `send` does.
  @discardableResult
  public func watchAlso(_ patterns: [ChannelPattern], reply: @escaping ReplyHandler) -> Bool {
    guard session.watchAlso(patterns, ticket: reply) else { return false }
    flush()
    return true
  }

  /// This connection counts as up now (with `upAtFirstOK` false): said once, and the delays
  /// between attempts start again from the shortest.
  public func linkIsUp() {
    guard fd != nil, !accepted else { return }
    linkUp()
  }

  /// Ends this connection as a failed attempt, for `failure` (the daemon refused what the
  /// program is: the bridge's `BRIDGE host=`), and tries again after the next delay.
  public func drop(_ failure: LinkFailure) {
    guard fd != nil else { return }
    lost(failure)
  }

  /// Closes the connection and stops reconnecting; requests in flight get `.connectionLost`.
  public func stop() {
    stopped = true
    retryTimer?.disarm()
    guard fd != nil else { return }
    endConnection()
  }

  // MARK: - The connection

  static func makeReader() -> LineReader { LineReader(maxLineLength: 1 << 16, capacity: 1 << 18) }

  private func connect() {
    guard fd == nil, !stopped else { return }
    let fd: FileDescriptor
    do throws(SystemError) {
      fd = try UnixSocket.connect(path: socket)
      do throws(Errno) {
        try fd.setNonBlocking()
      } catch {
        fd.close()
        throw SystemError("make the connection to '\(socket)' non-blocking", error)
      }
      do {
        source = try loop.addIO(fd: fd, events: .readable) { [unowned self] events in ready(events) }
      } catch {
        fd.close()
        throw error
      }
    } catch {
      failed(.unreachable(error.errno.description))
      return
    }
    self.fd = fd
    reader = DaemonClient.makeReader()
    accepted = false
    session.connected()
    if upAtFirstOK && session.awaitingCount == 0 { linkUp() }
    onEvent(.connected)
    flush()
  }

  private func ready(_ events: IOEvents) {
    if events.contains(.writable) { flush() }
    guard fd != nil else { return }
    if !events.isDisjoint(with: [.readable, .hangUp, .error]) { read() }
  }

  /// Reads what the socket has, up to `readsPerTurn` reads; the socket stays readable, so the
  /// loop comes back for the rest.
  private func read() {
    guard let connection = fd else { return }
    for _ in 0..<DaemonClient.readsPerTurn {
      // A read error ends the connection the way an end of file does.
      let result = (try? reader.read(from: connection).get()) ?? .endOfFile
      reader.forEachFrame { frame in
        if case .line(let bytes) = frame { received(ReplyLine(String(decoding: bytes, as: UTF8.self))) }
        // The program may have stopped the client, or a write failed: the rest is not read.
        return fd == connection
      }
      guard fd == connection else { return }
      flush()
      switch result {
      case .processed: continue
      case .wouldBlock: return
      case .endOfFile:
        lost(.lost("badged closed the connection"))
        return
      }
    }
  }

  private func received(_ line: ReplyLine) {
    if upAtFirstOK, !accepted, case .ok = line { linkUp() }
    guard let delivery = session.receive(line) else { return }
    switch delivery {
    case .reply(let handler, let line): handler(.line(line))
    default: onEvent(.received(delivery))
    }
  }

  private func linkUp() {
    accepted = true
    backoff.succeeded()
    if let line = health.connected() { log(line) }
  }

  /// Writes what the session has for the socket, as much as it takes now.
  private func flush() {
    guard let connection = fd else { return }
    if !session.output.isEmpty {
      if sent == pending.count {
        pending = session.takeOutput()
        sent = 0
      } else {
        pending += session.takeOutput()
      }
    }
    while sent < pending.count {
      let result: Result<IOResult, Errno> = pending.withUnsafeBytes { raw in
        Result { () throws(Errno) in try connection.write(UnsafeRawBufferPointer(rebasing: raw[sent...]), socket: true)
        }
      }
      switch result {
      case .success(.processed(let n)): sent += n
      case .success(.wouldBlock), .success(.endOfFile):
        source?.setEvents([.readable, .writable])
        return
      case .failure(let error):
        lost(.lost("cannot write to badged: \(error)"))
        return
      }
    }
    if !pending.isEmpty {
      pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
      sent = 0
      source?.setEvents(.readable)
    }
  }

  /// The connection ended: said once, and another attempt scheduled.
  private func lost(_ failure: LinkFailure) {
    endConnection()
    failed(failure)
  }

  /// Closes the connection; the requests in flight are told no reply comes.
  private func endConnection() {
    source?.cancel()
    source = nil
    fd?.close()
    fd = nil
    pending = []
    sent = 0
    for handler in session.connectionEnded() { handler(.connectionLost) }
  }

  private func failed(_ failure: LinkFailure) {
    if let line = health.failed(failure) { log(line) }
    guard !stopped else { return }
    retryTimer?.schedule(at: loop.now + backoff.failed(using: &random))
    onEvent(.disconnected(failure))
  }
}
