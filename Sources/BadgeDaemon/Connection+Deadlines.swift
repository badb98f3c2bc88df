import BadgeCore
import BadgeProtocol
import BadgeServer

/// A connection's two deadlines, which end one that holds the daemon's resources by being
/// slow: a line begun and not finished within `[limits] line_timeout_ms` (slowloris), and
/// output none of which is read for `[limits] send_timeout_ms` (a stuck reader, watcher or
/// not). Each runs only while it means something: the line's while the connection reads (a
/// connection paused waits on the daemon, not the other way round), the output's while some
/// waits; a connection idle between lines is never timed out. The earlier of the two is the
/// connection's deadline in the server's table, taken the first time it has one.
extension Connection {
  /// After lines were carried out: starts the line's clock when a line is begun (again, when
  /// lines `progressed`), stops it when none is or the connection no longer `reading`.
  func runLineClock(progressed: Bool, reading: Bool) {
    guard reading && input.isInsideLine else {
      insideLineSince = nil
      return
    }
    if progressed || insideLineSince == nil { insideLineSince = core.turn.now }
  }

  /// After a send that left output waiting: starts the output's clock, again when the peer
  /// took some (`progressed`).
  func runSendClock(progressed: Bool) {
    if progressed || unreadSince == nil { unreadSince = core.turn.now }
  }

  /// Puts the earlier of the two deadlines in the server's table (none when no clock runs).
  func setDeadline() {
    let limits = core.config.limits
    let line = insideLineSince.map { $0 + UInt64(limits.lineTimeoutMs) * 1000 }
    let send = unreadSince.map { $0 + UInt64(limits.sendTimeoutMs) * 1000 }
    let deadline: UInt64?
    switch (line, send) {
    case (let line?, let send?): deadline = min(line, send)
    case (let either, nil), (nil, let either): deadline = either
    }
    if deadline == nil && deadlineSlot == nil { return }
    let slot = deadlineSlot ?? deadlines.slot { [unowned self] in deadlineReached() }
    deadlineSlot = slot
    deadlines.set(slot, at: deadline)
  }

  /// The connection's deadline came: the line's, the output's, or both (each taken as its
  /// event); one moved later meanwhile (a reload that raised a limit) is set again.
  private func deadlineReached() {
    let now = core.turn.now
    let limits = core.config.limits
    if let since = insideLineSince, since + UInt64(limits.lineTimeoutMs) * 1000 <= now { handle(.lineTimeout) }
    if state != .closed, let since = unreadSince, since + UInt64(limits.sendTimeoutMs) * 1000 <= now {
      handle(.sendTimeout)
    }
    if state != .closed { setDeadline() }
  }

  /// `[limits] line_timeout_ms` passed inside a line: `ERR timeout`, then the connection goes
  /// once that is sent. Nothing more of it is read.
  func appendTimeoutError() {
    let limit = core.config.limits.lineTimeoutMs
    core.logger.debug("Client \(id): no end of line within \(limit) ms, closing.")
    ReplyEncoder.appendError(
      ProtocolError(
        .timeout,
        "A line was begun and not finished within \(limit) ms ([limits] line_timeout_ms); closing the connection"),
      to: &output)
    core.sendQueue.addReply(self)
  }

  /// `[limits] send_timeout_ms` passed with output waiting and none of it read: the peer is
  /// stuck (or gone without saying), and holds memory; it is disconnected, saying why.
  func warnSendTimeout() {
    let pid = self.pid.map { " (pid \($0))" } ?? ""
    core.warn(
      .sendTimeout,
      "Client \(id)\(pid) has read none of its \(pendingOutput) bytes of pending output for \(core.config.limits.sendTimeoutMs) ms ([limits] send_timeout_ms); disconnecting it.",
      self.pid.map { [.clientPID($0)] } ?? [])
  }
}
