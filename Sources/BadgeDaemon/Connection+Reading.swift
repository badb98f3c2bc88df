import BadgeCore
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// Reading: a connection's requests, framed by its `LineReader` and carried out by the core a
/// line at a time, within what one turn allows it.
///
/// A turn bounds what one connection may do: at most `Connections.readBudget` bytes read and
/// `Connections.lineAllowance` lines carried out, so that a client pipelining a flood cannot
/// make a turn long (each line may be an event for every watcher) and keep the others, new
/// clients included, waiting; its lines left over wait for the next turn, which serves it first.
///
/// Back-pressure: once its unsent output reaches `[limits] max_unsent_bytes`, nothing more of it
/// is read, nor are its buffered lines carried out, until the outbox has sent the output. Nor
/// while a long reply is under way (`Peer.isReplying`): once its output has drained, the next
/// turn appends the reply's next chunk first, and carries out later lines only after its end.
/// Lines that waited are carried out in a later turn, never from inside the end of a turn
/// (asserted in debug builds).
extension Connection {
  /// Reads and carries out what the connection has, while it is `reading`: the lines it holds
  /// first, then what the socket has, until the socket has no more or the connection pauses
  /// (each step an event: `linesCarriedOut`, `endOfInput`, `failed`, and the core's `quit`).
  func readRequests() {
    assert(core.turn.phase == .handling, "nothing is read while the turn ends")
    if allowanceTurn != connections.turn {
      allowanceTurn = connections.turn
      linesLeft = connections.lineAllowance
    }
    // What an earlier read left (lines beyond an allowance or a pause, the start of a line)
    // and a reply under way come first.
    if isReplying || input.isInsideLine { carryOutLines() }
    var total = 0
    while state == .reading && total < Connections.readBudget {
      let (result, filled) = input.readOnce(from: fd)
      switch result {
      case .failure(let failure):
        core.logger.debug("Client \(id): read failed: \(failure), closing.")
        return handle(.failed)
      case .success(.endOfFile):
        return handle(.endOfInput)
      case .success(.wouldBlock):
        return
      case .success(.processed(let n)):
        guard n > 0 else { return }  // the input buffer is full: its lines wait
        total += n
        carryOutLines()
        // A read that did not fill its room took all the socket held: another would only
        // say EAGAIN. The level-triggered poll set reports the socket again if more came.
        if !filled { return }
      }
    }
  }

  /// Carries out complete lines while the connection reads and its allowance lasts, unless its
  /// output reaches the high-water mark or a long reply begins; then the rest waits. A reply
  /// under way gets its next chunk first. Ends with `linesCarriedOut`, which pauses it if it
  /// must.
  private func carryOutLines() {
    if isReplying {
      core.continueReply(self)
      guard !isReplying else { return handle(.linesCarriedOut(count: 0)) }  // the chunk waits to be sent
    }
    let highWater = core.config.limits.maxUnsentBytes
    let allowance = linesLeft
    var lines = 0
    input.forEachFrame { frame in
      lines += 1
      switch frame {
      case .line(let line):
        core.handleLine(line, from: self)
      case .tooLong:
        ReplyEncoder.appendError(
          ProtocolError(
            .lineTooLong, "Line is longer than \(ProtocolInfo.maxLineLength) bytes; the rest of it was discarded"),
          to: &output)
        core.sendQueue.addReply(self)
      }
      return lines < allowance && pendingOutput < highWater && state == .reading && !isReplying
    }
    linesLeft -= lines
    handle(.linesCarriedOut(count: lines))
  }
}
