import BadgeCore
import BadgeProtocol
import BadgeSystem
import Glibc

/// Records every change before its reply is sent: the seam where persistence plugs in.
protocol ChangeLog: AnyObject {
  /// Called for every change, in order, with the channel as it is after the change.
  func record(_ channel: Channel)
  /// Called when a request turned do-not-disturb on or off (not for its end by time).
  func record(_ dnd: DoNotDisturb)
  /// Called once per loop turn before any reply of that turn is sent.
  func commit() throws(SystemError)
  /// Called after a failed commit, once a second until it succeeds: makes the log whole again.
  func repair() throws(SystemError)
}

/// The daemon's socket server: accepts clients, reads their requests, applies them to the
/// store, and sends replies and events, once per loop turn.
final class Server {
  let loop: EventLoop
  let store: Store
  var logger: Logger
  var changeLog: ChangeLog?
  /// Runs the feedback hooks of changes.
  var hooks: HookRunner?
  /// Carries out `RELOAD` (the daemon's one reload, shared with SIGHUP).
  var reloadConfig: (() throws(ConfigError) -> Void)?

  private let listener: FileDescriptor
  private var listenSource: IOSource?
  private var postSource: EventSource?
  private var pulseTimer: TimerSource?
  private var armedPulseDeadline: UInt64?
  /// Ends a timed do-not-disturb.
  var dndTimer: TimerSource?
  var armedDNDDeadline: UInt64?

  private var clients: [Int: Client] = [:]
  private var nextClientID = 1
  /// Clients that watch, for fan-out; kept in connection order.
  private(set) var watchers: [Client] = []
  /// Clients with output to send at the end of this turn.
  private var writeQueue: [Client] = []
  /// One event line, encoded once per change and copied to every watcher.
  private var eventScratch: [UInt8] = []
  /// Clients whose requests changed something this turn: their replies wait for the commit.
  private var committers: [Client] = []
  /// Why changes are refused, while the change log cannot record them.
  private(set) var persistenceFailure: SystemError?
  private var repairTimer: TimerSource?

  /// Reads at most this much from one client per turn, so one busy client cannot starve others.
  static let readBudget = 256 << 10

  init(loop: EventLoop, store: Store, listener: FileDescriptor, logger: Logger) throws(SystemError) {
    self.loop = loop
    self.store = store
    self.listener = listener
    self.logger = logger
    eventScratch.reserveCapacity(256)
    listenSource = try loop.addIO(fd: listener, events: .readable) { [unowned self] _ in acceptClients() }
    postSource = try loop.addPost { [unowned self] in endOfTurn() }
    pulseTimer = try loop.addTimer { [unowned self] in pulseTimerFired() }
    dndTimer = try loop.addTimer { [unowned self] in dndTimerFired() }
  }

  /// The number of connected clients and of watchers, for status lines.
  var clientCount: Int { clients.count }
  var watcherCount: Int { watchers.count }

  /// Stops accepting new clients (shutdown).
  func stopAccepting() {
    listenSource?.cancel()
    listenSource = nil
  }

  /// Sends what can be sent and closes every client (shutdown).
  func closeAll() {
    endOfTurn()
    for client in Array(clients.values) { close(client) }
  }

  // MARK: - Accepting and reading

  private func acceptClients() {
    while true {
      let fd: FileDescriptor?
      do {
        fd = try UnixSocket.accept(listener)
      } catch {
        logger.warning("Failed to accept a connection: \(error), ignoring.")
        return
      }
      guard let fd else { return }
      let client = Client(id: nextClientID, fd: fd)
      nextClientID += 1
      do {
        client.source = try loop.addIO(fd: fd, events: .readable) { [unowned self, unowned client] events in
          clientReady(client, events)
        }
      } catch {
        logger.warning("\(error), closing the connection.")
        fd.close()
        continue
      }
      clients[client.id] = client
      logger.debug(
        "Client \(client.id) connected (pid \(client.pid.map(String.init) ?? "unknown")).",
        client.pid.map { [.clientPID($0)] } ?? [])
    }
  }

  private func clientReady(_ client: Client, _ events: IOEvents) {
    if events.contains(.writable) { flushClient(client) }
    if client.closed { return }
    if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) {
      readClient(client)
    }
  }

  private func readClient(_ client: Client) {
    var total = 0
    var sawEnd = false
    reading: while total < Server.readBudget && !client.readPaused {
      switch client.input.read(from: client.fd) {
      case .failure(let failure):
        logger.debug("Client \(client.id): read failed: \(failure), closing.")
        close(client)
        return
      case .success(.endOfFile):
        sawEnd = true
        break reading
      case .success(.wouldBlock): break reading
      case .success(.processed(let n)):
        if n == 0 { break reading }  // input buffer full: lines wait for the output to drain
        total += n
      }
      processInput(client)
    }
    processInput(client)
    if sawEnd {
      client.closeAfterFlush = true
      if client.pendingOutput == 0 { close(client) } else { queueWrite(client) }
    }
  }

  /// Handles every complete line, unless the client's output is over the high-water mark, in
  /// which case the rest waits and reading pauses until the output drains.
  private func processInput(_ client: Client) {
    guard !client.closed, !client.closeAfterFlush || client.input.bufferedCount > 0 else { return }
    client.input.forEachFrame { frame in
      switch frame {
      case .line(let line): handleLine(line, from: client)
      case .tooLong:
        ReplyEncoder.appendError(
          ProtocolError(.lineTooLong, "Line is longer than \(ProtocolInfo.maxLineLength) bytes; the rest of it was discarded"),
          to: &client.output)
      }
      return client.pendingOutput < Client.outputHighWater && !client.closeAfterFlush
    }
    if client.pendingOutput > 0 { queueWrite(client) }
    let congested = client.pendingOutput >= Client.outputHighWater
    if congested != client.readPaused {
      client.readPaused = congested
      client.source?.setEvents(congested ? .writable : (client.pendingOutput > 0 ? [.readable, .writable] : .readable))
    }
  }

  // MARK: - Writing

  func queueWrite(_ client: Client) {
    guard !client.queuedForWrite, !client.closed else { return }
    client.queuedForWrite = true
    writeQueue.append(client)
  }

  /// Once per loop turn, before sleeping: persist this turn's changes, then send every reply
  /// and event (so a reply never goes out before its change is recorded), then re-arm the
  /// pulse timer.
  private func endOfTurn() {
    if let changeLog {
      do {
        try changeLog.commit()
      } catch {
        commitFailed(error)
      }
    }
    for client in committers { client.changedThisTurn = false }
    committers.removeAll(keepingCapacity: true)
    let queue = writeQueue
    writeQueue.removeAll(keepingCapacity: true)
    for client in queue {
      client.queuedForWrite = false
      flushClient(client)
    }
    armPulseTimer()
    armDNDTimer()
  }

  private func flushClient(_ client: Client) {
    guard !client.closed else { return }
    let done: Bool
    do {
      done = try client.flush()
    } catch {
      logger.debug("Client \(client.id): write failed: \(error), closing.")
      close(client)
      return
    }
    if done {
      if client.closeAfterFlush {
        close(client)
        return
      }
      if client.hasMergedEvents {
        sendMergedEvents(client)
        queueWrite(client)
        return
      }
      if client.readPaused {
        client.readPaused = false
        client.source?.setEvents(.readable)
        processInput(client)  // lines held back while congested
        readClient(client)
      } else {
        client.source?.setEvents(.readable)
      }
    } else {
      client.source?.setEvents(client.readPaused ? .writable : [.readable, .writable])
    }
  }

  func close(_ client: Client) {
    guard !client.closed else { return }
    client.closed = true
    client.source?.cancel()
    client.source = nil
    client.fd.close()
    clients[client.id] = nil
    if client.isWatching { watchers.removeAll { $0 === client } }
    logger.debug("Client \(client.id) disconnected.")
  }

  // MARK: - Changes and events

  /// Records a change made by `client`'s request, pushes it to every watcher of the channel,
  /// and runs the hooks of a count change.
  func changed(_ outcome: Store.Outcome, by client: Client) {
    let channel = outcome.channel
    changeLog?.record(channel)
    committed(by: client)
    push(channel)
    if channel.count != outcome.previousCount { hooks?.countChanged(channel, from: outcome.previousCount) }
  }

  /// Marks `client`'s replies of this turn as waiting for the commit of its changes.
  func committed(by client: Client) {
    if !client.changedThisTurn {
      client.changedThisTurn = true
      committers.append(client)
    }
  }

  /// The changes of this turn could not be recorded. Their requesters must not get an `OK`:
  /// their connections are closed with the replies unsent, and changes are refused until the
  /// change log is whole again (a repair is tried once a second).
  private func commitFailed(_ error: SystemError) {
    logger.error("\(error); closing \(committers.count) connection(s) whose changes were not saved, refusing changes until the state can be saved.")
    for client in committers {
      client.output.removeAll()
      client.outputOffset = 0
      close(client)
    }
    guard persistenceFailure == nil else { return }
    persistenceFailure = error
    if repairTimer == nil {
      repairTimer = try? loop.addTimer(at: loop.now + 1_000_000, accuracy: 100_000) { [unowned self] in
        tryRepair()
      }
    } else {
      repairTimer?.schedule(at: loop.now + 1_000_000)
    }
  }

  private func tryRepair() {
    do {
      try changeLog?.repair()
      persistenceFailure = nil
      logger.notice("The state can be saved again; accepting changes.")
    } catch {
      repairTimer?.schedule(at: loop.now + 1_000_000)
    }
  }

  /// Pushes the channel's state to every watcher of it, merging when a watcher is congested.
  func push(_ channel: Channel) {
    guard !watchers.isEmpty else { return }
    eventScratch.removeAll(keepingCapacity: true)
    ReplyEncoder.appendState(channel, kind: .event, now: loop.now, to: &eventScratch)
    for watcher in watchers where watcher.watches(channel.name) {
      if watcher.pendingOutput >= Client.eventHighWater || !watcher.mergedChannels.isEmpty {
        watcher.mergeEvent(for: channel.name)
      } else {
        watcher.output.append(contentsOf: eventScratch)
      }
      queueWrite(watcher)
    }
  }

  /// Sends the latest state of every channel held back while the watcher was congested.
  private func sendMergedEvents(_ client: Client) {
    let now = loop.now
    if client.mergedDND {
      client.mergedDND = false
      ReplyEncoder.appendDND(store.dnd, kind: .event, now: now, to: &client.output)
    }
    var sent = 0
    while sent < client.mergedChannels.count && client.pendingOutput < Client.eventHighWater {
      let name = client.mergedChannels[sent]
      client.mergedSet.remove(name)
      ReplyEncoder.appendState(store.channel(named: name), kind: .event, now: now, to: &client.output)
      sent += 1
    }
    client.mergedChannels.removeFirst(sent)
  }

  func startWatching(_ client: Client, _ patterns: [ChannelPattern]) {
    if client.patterns == nil {
      watchers.append(client)
      client.patterns = patterns
    } else if patterns.isEmpty || client.patterns!.isEmpty {
      client.patterns = []
    } else {
      client.patterns! += patterns.filter { !client.patterns!.contains($0) }
    }
  }

  func stopWatching(_ client: Client) {
    guard client.isWatching else { return }
    client.patterns = nil
    client.mergedChannels.removeAll()
    client.mergedSet.removeAll()
    client.mergedDND = false
    watchers.removeAll { $0 === client }
  }

  // MARK: - Pulse windows

  private func armPulseTimer() {
    let deadline = store.nextPulseDeadline
    guard deadline != armedPulseDeadline else { return }
    armedPulseDeadline = deadline
    if let deadline { pulseTimer?.schedule(at: deadline) } else { pulseTimer?.disarm() }
  }

  private func pulseTimerFired() {
    armedPulseDeadline = nil
    store.expirePulses(now: loop.now) { channel in
      push(channel)
      hooks?.pulseEnded(channel)
    }
  }
}
