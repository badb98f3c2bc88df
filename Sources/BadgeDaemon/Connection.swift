import BadgeCore
import BadgeProtocol
import BadgeServer
import BadgeSystem

/// A client on a socket, and the one owner of what the daemon does for it: reading its requests
/// (framing, the turn's line allowance; Connection+Reading), sending its output
/// (Connection+Sending) and its two deadlines (Connection+Deadlines). The core sees it as a
/// `Peer`.
///
/// Its life is one `State`, which `handle(_:)` alone changes, whatever the event: the poll set's,
/// reading's and sending's, a deadline's, the core's. The same function arms what follows from
/// the state: the events the poll set watches for (input only while it reads, room to write
/// while output waits and it is not queued to send), its deadline in the server's table, the
/// send queue and the connections served first in the next turn. A pair of state and event that
/// cannot happen fails an assertion, as `Turn.enter` does.
///
/// The states that follow each event (`next(after:in:_:)`): `–` the state stays, `✗` cannot
/// happen. The columns are `reading`, `pausedUntilNextTurn`, `pausedForOutput`,
/// `pausedForReply`, `draining` and `closed`.
///
/// | event           | reading         | untilNextTurn | forOutput     | forReply      | draining | closed |
/// |-----------------|-----------------|---------------|---------------|---------------|----------|--------|
/// | readable        | – (reads ¹)     | –             | –             | –             | – ²      | ✗      |
/// | writable        | –               | –             | –             | –             | –        | ✗      |
/// | servedNextTurn  | ✗               | reading ¹     | ✗             | ✗             | –        | –      |
/// | linesCarriedOut | ³               | ✗             | ✗             | ✗             | –        | ✗      |
/// | outputDrained   | –               | –             | untilNextTurn | untilNextTurn | closed   | ✗      |
/// | socketFull      | –               | –             | –             | –             | –        | ✗      |
/// | endOfInput      | draining ⁴      | ✗             | ✗             | ✗             | ✗        | ✗      |
/// | quit            | draining        | ✗             | ✗             | ✗             | ✗        | ✗      |
/// | lineTimeout     | draining        | draining      | ✗             | ✗             | ✗        | ✗      |
/// | sendTimeout     | closed          | closed        | closed        | closed        | closed   | ✗      |
/// | failed          | closed          | closed        | closed        | closed        | closed   | ✗      |
/// | closedByServer  | closed          | closed        | closed        | closed        | closed   | –      |
///
/// ¹ It reads: the complete lines it holds and what the socket has, within the turn's
/// allowance, each line carried out by the core, which raises `linesCarriedOut`, `endOfInput`
/// and `quit` as they come. ² Its output is queued: a peer that hung up shows on the next send.
/// ³ `pausedForOutput` once its unsent output has reached `[limits] max_unsent_bytes`, else
/// `pausedForReply` while a long reply is under way, else `pausedUntilNextTurn` once its
/// allowance is spent, else `reading`. ⁴ Or `closed` at once when no output waits.
///
/// Its other flags are the core's (`Peer`), and independent of this life: its place in the send
/// queue (any state but closed may have output to send), whether its output holds a reply,
/// whether it depends on the turn's commit, whether it is owed do-not-disturb's latest state.
final class Connection: Peer {
  /// Where a connection is in its life.
  enum State: Equatable {
    /// Its lines are carried out as they come, up to the turn's allowance.
    case reading
    /// Its allowance ran out with lines left, or its output drained after a pause: it is served
    /// first in the next turn, whatever its socket says (`Connections.serveNextTurn`).
    case pausedUntilNextTurn
    /// Its unsent output reached `[limits] max_unsent_bytes`: nothing is read until it drains.
    case pausedForOutput
    /// A long reply's chunk waits to be sent; the next one comes once it is, before any later
    /// line.
    case pausedForReply
    /// Its input ended, it asked to `QUIT`, or a line timed out: nothing more is read, and it
    /// closes once its output is sent.
    case draining
    /// Its socket is closed, and the core has forgotten it.
    case closed
  }

  /// What can happen to a connection.
  enum Event: Equatable {
    /// The poll set reports input, the end of input, or a hang-up.
    case readable
    /// The poll set reports room to write: it is sent to at the end of the turn.
    case writable
    /// The turn after it paused until the next one has begun: it reads first.
    case servedNextTurn
    /// Reading carried out `count` lines (none, maybe) and stopped.
    case linesCarriedOut(count: Int)
    /// All its output was sent.
    case outputDrained
    /// The socket took only part of its output (`progressed`: some of it): the rest waits for
    /// room.
    case socketFull(progressed: Bool)
    /// A read found the end of its input, every line before it carried out.
    case endOfInput
    /// It asked to `QUIT`, and the core appended the reply.
    case quit
    /// A line it began was not finished within `[limits] line_timeout_ms`.
    case lineTimeout
    /// None of its output was read for `[limits] send_timeout_ms`.
    case sendTimeout
    /// A read or a send failed (the peer is gone), or its socket could not be watched; what
    /// found the failure logs it.
    case failed
    /// The server closes it: the turn it depended on was undone, or the daemon stops.
    case closedByServer
  }

  /// What the connection is like when an event comes, for the events whose next state
  /// depends on it.
  struct Facts: Equatable {
    var outputWaits = false
    var outputFull = false
    var replying = false
    var allowanceSpent = false
  }

  /// The state after `event` in `state`, given `facts`; `nil` when the pair cannot happen. The
  /// table of the type's comment, as a function.
  @inline(__always)
  static func next(after event: Event, in state: State, _ facts: Facts) -> State? {
    switch (event, state) {
    case (.servedNextTurn, .closed), (.closedByServer, .closed): return .closed
    case (_, .closed): return nil
    case (.readable, _), (.writable, _), (.socketFull, _): return state
    case (.servedNextTurn, .pausedUntilNextTurn): return .reading
    case (.servedNextTurn, .draining), (.linesCarriedOut, .draining): return .draining
    case (.linesCarriedOut, .reading):
      if facts.outputFull { return .pausedForOutput }
      if facts.replying { return .pausedForReply }
      return facts.allowanceSpent ? .pausedUntilNextTurn : .reading
    case (.outputDrained, .pausedForOutput), (.outputDrained, .pausedForReply): return .pausedUntilNextTurn
    case (.outputDrained, .draining): return .closed
    case (.outputDrained, _): return state
    case (.endOfInput, .reading): return facts.outputWaits ? .draining : .closed
    case (.quit, .reading), (.lineTimeout, .reading), (.lineTimeout, .pausedUntilNextTurn): return .draining
    case (.servedNextTurn, _), (.linesCarriedOut, _), (.endOfInput, _), (.quit, _), (.lineTimeout, _): return nil
    case (.sendTimeout, _), (.failed, _), (.closedByServer, _): return .closed
    }
  }

  let fd: FileDescriptor
  private(set) var state = State.reading
  /// The core, which carries out its lines.
  let core: DaemonCore
  /// The set it is in, which serves it first in the next turn and gives it the turn's
  /// allowance.
  let connections: Connections
  /// The poll set that watches its socket.
  let poll: PollSet
  /// The server's deadlines, where its own is.
  let deadlines: Deadlines
  /// What counts the buffers it frees, for the heap's trim.
  let heap: HeapTrimmer
  var input = LineReader(maxLineLength: ProtocolInfo.maxLineLength, initialCapacity: Connection.initialInputCapacity)
  /// The `Connections.turn` `linesLeft` belongs to.
  var allowanceTurn: UInt64 = 0
  /// Lines it may still have carried out this turn (`Connections.lineAllowance`).
  var linesLeft = 0
  /// Since when it has been inside a line it began (`[limits] line_timeout_ms`), while reading.
  var insideLineSince: UInt64?
  /// Since when output has waited without the peer reading any (`[limits] send_timeout_ms`).
  var unreadSince: UInt64?
  /// Its place in the server's deadlines, taken the first time it has one.
  var deadlineSlot: Deadlines.Slot?
  /// The events the poll set watches for.
  private var armedEvents: IOEvents = .readable

  /// The input buffer a connection starts with: a request line or two. Most peers are
  /// watchers that send one short line and then only read; a pipelining client's buffer
  /// doubles on each full read up to the reader's capacity.
  static let initialInputCapacity = 256

  /// A connection on `fd`, in `poll` already, of `connections`, whose lines `core` carries out.
  init(
    id: Int, fd: FileDescriptor, pid: Int32?, core: DaemonCore, connections: Connections, poll: PollSet,
    deadlines: Deadlines, heap: HeapTrimmer
  ) {
    self.fd = fd
    self.core = core
    self.connections = connections
    self.poll = poll
    self.deadlines = deadlines
    self.heap = heap
    super.init(id: id, pid: pid)
  }

  /// Takes `event`: the one place the connection's state changes.
  func handle(_ event: Event) {
    let from = state
    guard let to = Connection.next(after: event, in: from, event.needsFacts ? facts : Facts()) else {
      return cannotTake(event)
    }
    // What the event does before the state changes.
    switch event {
    case .writable: core.sendQueue.add(self)  // sent at the end of the turn, after the commit
    case .readable where to == .draining: core.sendQueue.add(self)
    case .linesCarriedOut(let count): runLineClock(progressed: count > 0, reading: to.reads)
    case .outputDrained: unreadSince = nil
    case .socketFull(let progressed): runSendClock(progressed: progressed)
    case .lineTimeout: appendTimeoutError()
    case .sendTimeout: warnSendTimeout()
    default: break
    }
    state = to
    if to != from { enter(to) }
    switch event {
    case .readable, .servedNextTurn:
      // Reading raises events of its own, each arming what follows; reading nothing leaves the
      // connection as it was armed (reading and paused until the next turn watch alike).
      if to == .reading { return readRequests() }
    default: break
    }
    arm()
  }

  /// A pair of state and event that cannot happen: a mistake of the daemon's.
  @inline(never)
  private func cannotTake(_ event: Event) {
    assertionFailure("a connection \(state) cannot take \(event)")
  }

  /// The client asked to `QUIT` (the core, its reply appended).
  override func quit() {
    handle(.quit)
  }

  private var facts: Facts {
    Facts(
      outputWaits: pendingOutput > 0, outputFull: pendingOutput >= core.config.limits.maxUnsentBytes,
      replying: isReplying, allowanceSpent: linesLeft == 0)
  }

  /// What entering `state` does.
  private func enter(_ state: State) {
    switch state {
    case .reading:
      break
    case .pausedUntilNextTurn:
      connections.serveNextTurn(self)
    case .pausedForOutput, .pausedForReply:
      insideLineSince = nil  // it waits on us, not we on it
    case .draining:
      insideLineSince = nil
      if pendingOutput > 0 { core.sendQueue.add(self) }
    case .closed:
      tearDown()
    }
  }

  /// Closed: out of the deadlines, the poll set and the core, its socket closed, its buffers
  /// counted as freed.
  private func tearDown() {
    insideLineSince = nil
    unreadSince = nil
    if let deadlineSlot { deadlines.release(deadlineSlot) }
    deadlineSlot = nil
    connections.remove(self)
    fd.close()
    heap.released(output.capacity + input.storageCapacity + Connection.footprint)
    core.logger.debug("Client \(id) disconnected.")
  }

  /// What a closed connection frees besides its buffers, as the `HeapTrimmer` counts it: the
  /// connection and what the daemon keeps for it (subscriptions, poll entry, merged events),
  /// as measured for idle watchers (BENCHMARKS.md, "Memory", scenario 4). Counted so, watchers
  /// that each sent one short line still make a trim due when many of them leave.
  static let footprint = 4096

  /// Watches for input while it reads, and for room to write while output waits and it is not
  /// queued to send it already (one carried over by a turn's send budget is: the next turn
  /// begins without waiting and sends it); keeps its deadline in the server's table.
  private func arm() {
    guard state != .closed else { return }
    var events: IOEvents = state.reads ? .readable : []
    if pendingOutput > 0 && !queuedForSend { events.insert(.writable) }
    if events != armedEvents {
      armedEvents = events
      do throws(SystemError) {
        try poll.modify(fd, events: events)
      } catch {
        core.logger.warning("Client \(id): \(error), closing.")
        return handle(.failed)
      }
    }
    if insideLineSince != nil || unreadSince != nil || deadlineSlot != nil { setDeadline() }
  }
}

extension Connection.State {
  /// Whether the connection reads in this state (its socket watched for input).
  var reads: Bool { self == .reading || self == .pausedUntilNextTurn }
}

extension Connection.Event {
  /// Whether the next state depends on the connection's `Facts`.
  var needsFacts: Bool {
    switch self {
    case .linesCarriedOut, .endOfInput: return true
    default: return false
    }
  }
}
