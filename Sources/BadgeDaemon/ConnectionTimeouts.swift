import BadgeConfig
import BadgeCore
import BadgeSystem

/// Ends connections that hold the daemon's resources by being slow: one that began a line and
/// has not finished it within `[limits] line_timeout_ms` (slowloris), and one whose pending
/// output none of has been read for `[limits] send_timeout_ms` (a stuck reader, watcher or not).
///
/// One timer serves every connection. It is armed only while some connection is inside a line
/// or has output waiting, so an idle daemon is not woken, and a connection that is idle between
/// lines is never timed out.
final class ConnectionTimeouts {
  /// The owner, which outlives it (a plain reference: the timeouts are looked at on every
  /// read and send).
  private unowned(unsafe) let server: Server
  private var timer: TimerSource?
  private var armedAt: UInt64?
  /// Connections with a clock running, by id.
  private var timed: [Int: Connection] = [:]
  /// A connection that has been inside a line too long goes to `server.lineTimedOut`, one
  /// whose output has gone unread too long to `server.sendTimedOut`.
  init(server: Server) throws(SystemError) {
    self.server = server
    timer = try server.loop.addTimer(accuracy: 50_000) { [unowned self] in fired() }
  }

  private var loop: EventLoop { server.loop }
  private func limits() -> ResourceLimits { server.core.config.limits }

  /// After the connection's complete lines were carried out: `insideLine` tells whether it has
  /// begun another, `progressed` whether it finished any since the last call.
  func read(_ connection: Connection, insideLine: Bool, progressed: Bool) {
    if insideLine {
      if progressed || connection.insideLineSince == nil { connection.insideLineSince = loop.now }
    } else {
      connection.insideLineSince = nil
    }
    update(connection)
  }

  /// After a send: `progressed` tells whether the peer took any bytes.
  func sent(_ connection: Connection, progressed: Bool) {
    if connection.pendingOutput == 0 {
      connection.unreadSince = nil
      // Nothing to time and nothing timed: the common case of a watcher whose event went out.
      if connection.insideLineSince == nil && !connection.timed { return }
    } else if progressed || connection.unreadSince == nil {
      connection.unreadSince = loop.now
    }
    update(connection)
  }

  /// The connection is closed.
  func forget(_ connection: Connection) {
    if connection.timed { timed[connection.id] = nil }
    connection.timed = false
  }

  private func update(_ connection: Connection) {
    guard let deadline = deadline(of: connection, limits()) else {
      forget(connection)
      return
    }
    if !connection.timed {
      connection.timed = true
      timed[connection.id] = connection
    }
    if armedAt.map({ deadline < $0 }) ?? true {
      armedAt = deadline
      timer?.schedule(at: deadline)
    }
  }

  private func deadline(of connection: Connection, _ limits: ResourceLimits) -> UInt64? {
    let line = connection.insideLineSince.map { $0 + UInt64(limits.lineTimeoutMs) * 1000 }
    let send = connection.unreadSince.map { $0 + UInt64(limits.sendTimeoutMs) * 1000 }
    switch (line, send) {
    case (let l?, let s?): return min(l, s)
    case (let l?, nil): return l
    case (nil, let s?): return s
    case (nil, nil): return nil
    }
  }

  private func fired() {
    armedAt = nil
    let now = loop.now
    let limits = limits()
    var next: UInt64?
    for connection in Array(timed.values) {
      if let since = connection.insideLineSince, since + UInt64(limits.lineTimeoutMs) * 1000 <= now {
        connection.insideLineSince = nil
        server.lineTimedOut(connection)
      }
      if !connection.closed, let since = connection.unreadSince,
        since + UInt64(limits.sendTimeoutMs) * 1000 <= now
      {
        connection.unreadSince = nil
        server.sendTimedOut(connection)
      }
      if connection.closed {
        forget(connection)
      } else if let deadline = deadline(of: connection, limits) {
        next = min(next ?? deadline, deadline)
      } else {
        forget(connection)
      }
    }
    if let next {
      armedAt = next
      timer?.schedule(at: next)
    }
  }
}
