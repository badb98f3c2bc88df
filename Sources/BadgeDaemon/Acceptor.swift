import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeSystem

/// Takes new connections off the listening socket and admits the ones that may stay: the
/// daemon's user only (peer credentials), and no more than `[limits] max_clients` at once. The
/// listener is watched in the connections' poll set, beside the clients, so that the turn that
/// accepts a client and answers its first request makes one `epoll_wait`.
///
/// Out of file descriptors (`EMFILE`, `ENFILE`), `accept` fails while the connection stays
/// pending, so a level-triggered listener would wake the loop at once, forever: accepting
/// pauses instead for `backoff` (as swift-nio's AcceptBackoffHandler does), a deadline in the
/// server's table.
///
/// Whatever a client can make it warn about over and over (refusals past `max_clients` or of
/// another user, a shortage of descriptors, failures) goes through the core's
/// `RepeatedWarnings`: a line per reason at most once per interval, then the count of the rest.
final class Acceptor {
  /// Takes one pending connection off a listening socket: its descriptor, non-blocking and
  /// close-on-exec, or `nil` when none is pending (`UnixSocket.accept`, or a test's).
  typealias Accept = (FileDescriptor) throws(Errno) -> FileDescriptor?

  /// How long accepting pauses when no file descriptor is left.
  static let backoff: UInt64 = 1_000_000

  private let listener: FileDescriptor
  private let connections: Connections
  private let core: DaemonCore
  private let deadlines: Deadlines
  private let accept: Accept
  /// The end of a pause, in the server's deadlines (taken at the first pause).
  private lazy var resumeSlot = deadlines.slot { [unowned self] in resume() }
  /// Whether the listener is watched (until `stop()`).
  private var watched = false

  /// Accepts on `listener` with `accept` and admits into `connections`, which watches it; a
  /// pause ends at a deadline in `deadlines`.
  init(
    listener: FileDescriptor, connections: Connections, core: DaemonCore, deadlines: Deadlines,
    accept: @escaping Accept
  ) throws(SystemError) {
    self.listener = listener
    self.connections = connections
    self.core = core
    self.deadlines = deadlines
    self.accept = accept
    try connections.watchListener(listener) { [unowned self] in acceptAll() }
    watched = true
  }

  /// Stops accepting for good (shutdown).
  func stop() {
    if watched { connections.forgetListener() }
    watched = false
    deadlines.release(resumeSlot)
  }

  private func acceptAll() {
    while true {
      let fd: FileDescriptor?
      do {
        fd = try accept(listener)
      } catch  where error.isOutOfDescriptors {
        pause(error)
        return
      } catch {
        core.warn(.acceptFailed, "Failed to accept a connection: \(error), ignoring it.")
        return
      }
      guard let fd else { return }
      take(fd)
    }
  }

  private func take(_ fd: FileDescriptor) {
    let peer = UnixSocket.peerCredentials(fd)
    guard let peer, peer.isThisUser else {
      core.warn(
        .otherUser,
        "Refused a connection from pid \(peer.map { String($0.pid) } ?? "unknown"), uid \(peer.map { String($0.uid) } ?? "unknown"): only this user may connect.",
        peer.map { [.clientPID($0.pid)] } ?? [])
      refuse(fd, ProtocolError(.denied, "Only the user badged runs as may connect"))
      return
    }
    let limit = core.config.limits.maxClients
    if connections.count >= limit {
      core.warn(
        .clientsPastLimit,
        "\(limit) clients are connected ([limits] max_clients); refusing new connections until one leaves.")
      refuse(fd, ProtocolError(.busy, "\(limit) clients are connected already ([limits] max_clients); try again later"))
      return
    }
    do {
      try connections.admit(fd, pid: peer.pid)
    } catch {
      core.warn(.admitFailed, "\(error), closing the connection.")
      fd.close()
    }
  }

  /// Sends one error line, if the socket takes it now, and closes the connection.
  private func refuse(_ fd: FileDescriptor, _ error: ProtocolError) {
    var line: [UInt8] = []
    ReplyEncoder.appendError(error, to: &line)
    _ = line.withUnsafeBytes { try? fd.write($0, socket: true) }
    fd.close()
  }

  private func pause(_ error: Errno) {
    core.warn(
      .outOfDescriptors,
      "Failed to accept a connection: \(error) (\(error.name ?? "")); pausing accepting for a second at a time until a file descriptor is free."
    )
    do throws(SystemError) {
      try connections.listen(false)
    } catch {
      core.logger.error("\(error); accepting goes on without a pause.")
    }
    deadlines.set(resumeSlot, after: Acceptor.backoff)
  }

  private func resume() {
    guard watched else { return }
    do throws(SystemError) {
      try connections.listen(true)
    } catch {
      core.logger.error("\(error); new connections are no longer accepted.")
    }
    acceptAll()
  }
}
