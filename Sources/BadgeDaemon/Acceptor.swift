import BadgeCore
import BadgeProtocol
import BadgeSystem

/// Takes new connections off the listening socket and admits the ones that may stay: the
/// daemon's user only (peer credentials), and no more than `[limits] max_clients` at once.
///
/// Out of file descriptors (`EMFILE`, `ENFILE`), `accept` fails while the connection stays
/// pending, so a level-triggered listener would wake the loop at once, forever: accepting
/// pauses instead for `backoff` (as swift-nio's AcceptBackoffHandler does), and the log says
/// so once per shortage rather than once per attempt.
final class Acceptor {
  /// How long accepting pauses when no file descriptor is left.
  static let backoff: UInt64 = 1_000_000

  /// The owner, which outlives it.
  private unowned(unsafe) let server: Server
  private let listener: FileDescriptor
  private var source: IOSource?
  private var backoffTimer: TimerSource?
  /// Whether the current shortage of descriptors was logged (until a queue drains again).
  private var shortageLogged = false
  /// Whether the current run at `max_clients` was logged (until a client leaves).
  private var fullLogged = false

  /// Admitted connections go to `server.admit`, which may throw to refuse one after all (it
  /// is then closed).
  init(server: Server, listener: FileDescriptor) throws(SystemError) {
    self.server = server
    self.listener = listener
    source = try server.loop.addIO(fd: listener, events: .readable) { [unowned self] _ in acceptAll() }
    backoffTimer = try server.loop.addTimer(accuracy: 100_000) { [unowned self] in resume() }
  }

  private var logger: Logger { server.logger }

  /// Stops accepting for good (shutdown).
  func stop() {
    source?.cancel()
    source = nil
    backoffTimer?.cancel()
    backoffTimer = nil
  }

  private func acceptAll() {
    while true {
      let fd: FileDescriptor?
      do {
        fd = try UnixSocket.accept(listener)
      } catch where error.isOutOfDescriptors {
        pause(error)
        return
      } catch {
        logger.warning("Failed to accept a connection: \(error), ignoring it.")
        return
      }
      guard let fd else {
        shortageLogged = false  // the queue is empty: any shortage is over
        return
      }
      take(fd)
    }
  }

  private func take(_ fd: FileDescriptor) {
    let peer = UnixSocket.peerCredentials(fd)
    guard let peer, peer.isThisUser else {
      logger.warning(
        "Refused a connection from pid \(peer.map { String($0.pid) } ?? "unknown"), uid \(peer.map { String($0.uid) } ?? "unknown"): only this user may connect.",
        peer.map { [.clientPID($0.pid)] } ?? [])
      refuse(fd, ProtocolError(.denied, "Only the user badged runs as may connect"))
      return
    }
    let limit = server.store.config.limits.maxClients
    if server.clientCount >= limit {
      if !fullLogged {
        fullLogged = true
        logger.warning("\(limit) clients are connected ([limits] max_clients); refusing new connections until one leaves.")
      }
      refuse(fd, ProtocolError(.busy, "\(limit) clients are connected already ([limits] max_clients); try again later"))
      return
    }
    fullLogged = false
    do {
      try server.admit(fd, peer)
    } catch {
      logger.warning("\(error), closing the connection.")
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
    if !shortageLogged {
      shortageLogged = true
      logger.warning(
        "Failed to accept a connection: \(error) (\(error.name ?? "")); pausing accepting for a second at a time until a file descriptor is free.")
    }
    source?.setEvents([])
    backoffTimer?.schedule(at: server.loop.now + Acceptor.backoff)
  }

  private func resume() {
    guard source != nil else { return }
    source?.setEvents(.readable)
    acceptAll()
  }
}
