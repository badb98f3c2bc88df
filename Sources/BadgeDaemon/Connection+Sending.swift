import BadgeCore
import BadgeServer
import BadgeSystem

/// Sending: a connection's output goes out at the end of the turn, after the commit, when the
/// socket sender reaches it in the send queue (`SocketSender.send`), one `send` while the socket takes it.
extension Connection {
  /// Sends as much of the output as the socket takes now; a watcher whose output drained gets
  /// the events it is owed since it fell behind (only when it owes some), and is sent to again.
  /// Ends with `outputDrained`, `socketFull` or `failed`.
  func flush() {
    var done = false
    let before = pendingOutput
    repeat {
      do {
        done = try send()
      } catch {
        core.logger.debug("Client \(id): write failed: \(error), closing.")
        return handle(.failed)
      }
      if done {
        let freed = outputSent()
        if freed > 0 { heap.released(freed) }
      }
    } while done && owesMergedEvents && core.appendMergedEvents(to: self)
    if done { handle(.outputDrained) } else { handle(.socketFull(progressed: pendingOutput < before)) }
  }

  /// Sends as much pending output as the socket takes now; the caller empties the output once
  /// all is sent (`outputSent`, which says how much buffer it freed).
  ///
  /// - Returns: `true` when everything was sent.
  /// - Throws: `Errno` when the peer is gone.
  private func send() throws(Errno) -> Bool {
    while outputOffset < output.count {
      let result: Result<IOResult, Errno> = output.withUnsafeBytes { raw in
        Result { () throws(Errno) in
          try fd.write(UnsafeRawBufferPointer(rebasing: raw[outputOffset...]), socket: true)
        }
      }
      switch try result.get() {
      case .processed(let n): outputOffset += n
      case .wouldBlock, .endOfFile:
        outputPartlySent()
        return false
      }
    }
    return true
  }
}
