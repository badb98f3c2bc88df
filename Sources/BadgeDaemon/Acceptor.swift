import BadgeCore
import BadgeLog
import BadgeProtocol
import BadgeSystem

/// Takes new connections off the listening socket and admits the ones that may stay: the
/// daemon's user only (peer credentials), and no more than `[limits] max_clients` at once. The
/// listener is watched in the reader's poll set, beside the clients, so that the turn that
/// accepts a client and answers its first request makes one `epoll_wait`.
///
/// Out of file descriptors (`EMFILE`, `ENFILE`), `accept` fails while the connection stays
/// pending, so a level-triggered listener would wake the loop at once, forever: accepting
/// pauses instead for `backoff` (as swift-nio's AcceptBackoffHandler does).
///
/// Whatever a client can make it warn about over and over (refusals past `max_clients` or of
/// another user, a shortage of descriptors, failures) goes through the core's
/// `RepeatedWarnings`: a line per reason at most once per interval, then the count of the rest.
final class Acceptor {
  /// How long accepting pauses when no file descriptor is left.
  static let backoff: UInt64 = 1_000_000

  /// The owner, which outlives it.
  private unowned(unsafe) let server: Server
  private let listener: FileDescriptor
  /// Whether the listener is watched (until `stop()`); it is in the reader's poll set.
  private var watched = false
  private var backoffTimer: TimerSource?

  /// Admitted connections go to `server.admit`, which may throw to refuse one after all (it
  /// is then closed).
  init(server: Server, listener: FileDescriptor) throws(SystemError) {
    self.server = server
    self.listener = listener
    try server.reader.watchListener(listener) { [unowned self] in acceptAll() }
    watched = true
    backoffTimer = try server.loop.addTimer(accuracy: 100_000) { [unowned self] in resume() }
  }

  /// Logs a warning a client can cause over and over, at most once per reason per interval
  /// and then a count (the core's `RepeatedWarnings`).
  private func warn(
    _ reason: RepeatedWarnings.Reason, _ message: @autoclosure () -> String,
    _ fields: @autoclosure () -> [Logger.Field] = []
  ) {
    server.core.warn(reason, message(), fields())
  }

  /// Stops accepting for good (shutdown).
  func stop() {
    if watched { server.reader.forgetListener() }
    watched = false
    backoffTimer?.cancel()
    backoffTimer = nil
  }

  private func acceptAll() {
    while true {
      let fd: FileDescriptor?
      do {
        fd = try UnixSocket.accept(listener)
      } catch  where error.isOutOfDescriptors {
        pause(error)
        return
      } catch {
        warn(.acceptFailed, "Failed to accept a connection: \(error), ignoring it.")
        return
      }
      guard let fd else { return }
      take(fd)
    }
  }

  private func take(_ fd: FileDescriptor) {
    let peer = UnixSocket.peerCredentials(fd)
    guard let peer, peer.isThisUser else {
      warn(
        .otherUser,
        "Refused a connection from pid \(peer.map { String($0.pid) } ?? "unknown"), uid \(peer.map { String($0.uid) } ?? "unknown"): only this user may connect.",
        peer.map { [.clientPID($0.pid)] } ?? [])
      refuse(fd, ProtocolError(.denied, "Only the user badged runs as may connect"))
      return
    }
    let limit = server.core.config.limits.maxClients
    if server.clientCount >= limit {
      warn(
        .clientsPastLimit,
        "\(limit) clients are connected ([limits] max_clients); refusing new connections until one leaves.")
      refuse(fd, ProtocolError(.busy, "\(limit) clients are connected already ([limits] max_clients); try again later"))
      return
    }
    do {
      try server.admit(fd, peer)
    } catch {
      warn(.admitFailed, "\(error), closing the connection.")
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
    warn(
      .outOfDescriptors,
      "Failed to accept a connection: \(error) (\(error.name ?? "")); pausing accepting for a second at a time until a file descriptor is free."
    )
    server.reader.listen(false)
    backoffTimer?.schedule(at: server.loop.now + Acceptor.backoff)
  }

  private func resume() {
    guard watched else { return }
    server.reader.listen(true)
    acceptAll()
  }
}
