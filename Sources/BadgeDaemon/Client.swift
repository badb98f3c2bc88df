import BadgeCore
import BadgeProtocol
import BadgeSystem

/// One connection: its input framing, its pending output and what it watches.
final class Client {
  /// Stop reading a client's requests while this much of its output is unsent (back-pressure
  /// on a client that pipelines without reading).
  static let outputHighWater = 1 << 20
  /// Stop appending events to a watcher's output past this much unsent data; later changes
  /// are merged per channel and sent as the channel's latest state once it drains.
  static let eventHighWater = 256 << 10

  let id: Int
  let fd: FileDescriptor
  let pid: Int32?
  var source: IOSource?
  var input = LineReader(maxLineLength: ProtocolInfo.maxLineLength)
  /// Bytes to send are `output[outputOffset...]`.
  var output: [UInt8] = []
  var outputOffset = 0

  /// What the client watches: `nil` when it does not watch, `[]` for every channel.
  var patterns: [ChannelPattern]? = nil
  /// Channels whose events were held back while the output was over `eventHighWater`, in the
  /// order they first changed.
  var mergedChannels: [ChannelName] = []
  var mergedSet: Set<ChannelName> = []
  /// Do-not-disturb changed while the output was congested: its latest state is owed.
  var mergedDND = false

  /// Whether a request of this client changed something in the current loop turn.
  var changedThisTurn = false
  /// Whether it is in the server's list of clients to flush this turn.
  var queuedForWrite = false
  /// Whether reading is paused until the output drains.
  var readPaused = false
  /// The peer sent end-of-file, or asked to `QUIT`: close once the output is sent.
  var closeAfterFlush = false
  var closed = false

  init(id: Int, fd: FileDescriptor) {
    self.id = id
    self.fd = fd
    self.pid = UnixSocket.peerPID(fd)
    output.reserveCapacity(4096)
  }

  /// Bytes queued but not yet written.
  var pendingOutput: Int { output.count - outputOffset }

  var isWatching: Bool { patterns != nil }

  /// Whether a change of `name` is pushed to this client.
  @inline(__always)
  func watches(_ name: ChannelName) -> Bool {
    guard let patterns else { return false }
    if patterns.isEmpty { return true }
    for pattern in patterns where pattern.matches(name) { return true }
    return false
  }

  /// Writes as much pending output as the socket takes now.
  ///
  /// - Returns: `true` when everything was sent.
  /// - Throws: `Errno` when the peer is gone.
  func flush() throws(Errno) -> Bool {
    while outputOffset < output.count {
      let result: Result<IOResult, Errno> = output.withUnsafeBytes { raw in
        Result { () throws(Errno) in
          try fd.write(UnsafeRawBufferPointer(rebasing: raw[outputOffset...]), socket: true)
        }
      }
      switch try result.get() {
      case .processed(let n): outputOffset += n
      case .wouldBlock, .endOfFile:
        if outputOffset > 64 << 10 { compactOutput() }
        return false
      }
    }
    output.removeAll(keepingCapacity: output.capacity <= 64 << 10)
    outputOffset = 0
    return true
  }

  private func compactOutput() {
    output.removeFirst(outputOffset)
    outputOffset = 0
  }

  /// Remembers that `name` changed while the output was congested.
  func mergeEvent(for name: ChannelName) {
    if mergedSet.insert(name).inserted { mergedChannels.append(name) }
  }

  /// Whether anything held back while congested is still to be sent.
  var hasMergedEvents: Bool { mergedDND || !mergedChannels.isEmpty }
}
