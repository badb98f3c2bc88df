import BadgeCore
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// A peer on a socket: the file descriptor, the poll set that watches it, the input framing and
/// the state of reading.
final class Connection: Peer {
  let fd: FileDescriptor
  /// The reader's poll set while the connection is in it.
  var poll: PollSet?
  /// The reader's turn `linesLeft` belongs to.
  var turn: UInt64 = 0
  /// Lines it may still have carried out this turn (`ConnectionReader.lineAllowance`).
  var linesLeft = 0
  var input = LineReader(maxLineLength: ProtocolInfo.maxLineLength, initialCapacity: Connection.initialInputCapacity)
  /// Whether reading is paused until the output drains.
  var readPaused = false
  /// Whether lines already read wait for the reader's next turn (after the output drained).
  var queuedForInput = false
  /// The peer sent end-of-file: the lines before it are still carried out.
  var inputEnded = false
  /// Since when the peer has been inside a line it began (`[limits] line_timeout_ms`).
  var insideLineSince: UInt64?
  /// Since when output has waited without the peer reading any (`[limits] send_timeout_ms`).
  var unreadSince: UInt64?
  /// Whether `ConnectionTimeouts` keeps an eye on it.
  var timed = false

  /// The input buffer a connection starts with: a request line or two. Most peers are
  /// watchers that send one short line and then only read; a pipelining client's buffer
  /// doubles on each full read up to the reader's capacity.
  static let initialInputCapacity = 256

  init(id: Int, fd: FileDescriptor, pid: Int32?) {
    self.fd = fd
    super.init(id: id, pid: pid)
  }

  /// Sends as much pending output as the socket takes now; the caller empties the output once
  /// all is sent (`outputSent`, which says how much buffer it freed).
  ///
  /// - Returns: `true` when everything was sent.
  /// - Throws: `Errno` when the peer is gone.
  func send() throws(Errno) -> Bool {
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

  /// The events the IO source watches for now.
  private var armedEvents: IOEvents = .readable

  /// Watches for input unless reading is paused, and for room to write while output waits
  /// and the connection is not already queued to send it (one carried over by a turn's send
  /// budget is: the next turn begins without waiting and sends it).
  func armEvents() {
    var events: IOEvents = readPaused ? [] : .readable
    if pendingOutput > 0 && !queuedForSend { events.insert(.writable) }
    guard events != armedEvents else { return }
    armedEvents = events
    poll?.modify(fd, events: events)
  }
}
