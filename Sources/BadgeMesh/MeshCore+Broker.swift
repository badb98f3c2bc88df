import BadgeCore

extension MeshCore {
  /// How long to wait for the sync marker before going on without it (a broker whose ACL
  /// refuses this host its own `sync` topic).
  static let syncTimeout: UInt64 = 10_000_000

  /// The broker accepted the connection: subscribe, then send the marker that comes back
  /// after every retained message, and say whether this machine is online.
  public func brokerConnected(at time: MeshTime) {
    connections += 1
    let token = "\(connections)-\(time.wallMs)"
    brokerPhase = .syncing(token: token, since: time.monotonic)
    brokerError = nil
    forwards.markAllUnsent()
    coalescer.reset()
    announced.removeAll()
    switchAnnounced = false
    announceAgainAt = nil
    let dndShared = config.dnd == .shared
    actions.append(
      .subscribe(topics.retainedSubscriptions(dndShared: dndShared, homeAssistant: config.homeAssistant), qos: 0))
    actions.append(.subscribe(topics.messageSubscriptions(dndShared: dndShared), qos: 1))
    publish(MeshMessage(topic: topics.ownSync, payload: Array(token.utf8), retain: false))
    publishOwnStatus()
    reportStatus(at: time, now: true)
  }

  /// The broker connection failed or ended: every owner is stale here until it is back.
  public func brokerDown(error: String?, at time: MeshTime) {
    let wasUp = brokerPhase != .down
    brokerPhase = .down
    brokerError = error
    earlyCommands.removeAll()
    if wasUp && daemonReady {
      // Every owner known, from its status or only from its states.
      for (name, info) in hosts.sorted(by: { $0.key < $1.key }) { sendStale(name, info, brokerUp: false) }
    }
    // What the hosts said is heard again, retained, on the next connection.
    for name in hosts.keys { hosts[name]?.online = nil }
    reportStatus(at: time, now: true)
  }

  /// `online` while the daemon is reachable, else `offline`.
  func publishOwnStatus() {
    publish(
      MeshMessage(topic: topics.ownStatus, payload: Array((daemonReady ? "online" : "offline").utf8), retain: true))
  }

  /// A message the broker delivered. Everything in it is untrusted: what does not parse is
  /// dropped with a debug line and changes nothing.
  public func brokerMessage(_ message: IncomingMessage, at time: MeshTime) {
    guard message.payload.count <= MeshLimits.maxPayloadBytes else {
      logger.debug(
        "Dropped a message of \(message.payload.count) bytes on \(message.topic.truncated(toUTF8: 200)): over \(MeshLimits.maxPayloadBytes)."
      )
      return
    }
    guard let kind = topics.classify(message.topic) else {
      logger.debug("Dropped a message on \(message.topic.truncated(toUTF8: 200)): not a topic of this bridge.")
      return
    }
    switch kind {
    case .sync:
      if case .syncing(let token, _) = brokerPhase, message.payload.elementsEqual(token.utf8) { synced(at: time) }
    case .state(let channel): stateHeard(channel, message.payload, at: time)
    case .command(let channel): commandHeard(channel, message, at: time)
    case .status(let name): statusHeard(name, message.payload, at: time)
    case .reply: answerHeard(message, at: time)
    case .dndState: dndStateHeard(message.payload, at: time)
    case .dndSet: dndSetHeard(message.payload, at: time)
    case .homeAssistantStatus:
      // Before the sync marker the configs go out anyway, once the marker is back.
      if message.payload.elementsEqual("online".utf8) && config.homeAssistant && synced && announceAgainAt == nil {
        announceAgainAt = time.monotonic + homeAssistant.birthDelay
      }
    }
  }

  /// Every retained message of the subscriptions has come: claims are known.
  func synced(at time: MeshTime) {
    brokerPhase = .synced
    reconcile(at: time)
    let early = earlyCommands
    earlyCommands.removeAll()
    for command in early { carryOut(command.channel, command.command, command.route) }
    sendForwards(at: time)
    reportStatus(at: time, now: true)
  }

  /// With the daemon's states and the broker's claims both known: claim and publish what is
  /// shared here, look up shared channels the daemon did not list, release what is no longer
  /// shared, announce to Home Assistant, publish do-not-disturb.
  func reconcile(at time: MeshTime) {
    guard daemonReady && synced else { return }
    for (channel, state) in localStates.sorted(by: { $0.key < $1.key }) { own(channel, state, at: time) }
    for channel in claims.held.sorted() where localStates[channel] == nil {
      if config.shares(channel) {
        send(DaemonLink.watch([ChannelPattern(channel.description)!]), .watchOne)
      } else {
        release(channel)
      }
    }
    announceAll()
    if let local = pendingLocalDND {
      pendingLocalDND = nil
      if dnd.newest == local.stamp { publishDND(local) }
    }
  }

  /// Timers: coalesced states due, answers overdue, Home Assistant's configs to send again,
  /// the sync marker late, a status to send.
  public func tick(at time: MeshTime) {
    if synced {
      for (channel, state) in coalescer.due(now: time.monotonic) { publishState(channel, state) }
      if let due = announceAgainAt, time.monotonic >= due {
        announceAgainAt = nil
        announced.removeAll()
        switchAnnounced = false
        announceAll()
      }
      let late = forwards.overdue(now: time.monotonic)
      if !late.isEmpty {
        logger.debug("No answer yet for \(late.count) forwarded writes; sending them again.")
        for write in late { publishWrite(write) }
      }
    }
    if case .syncing(_, let since) = brokerPhase, time.monotonic >= since + MeshCore.syncTimeout {
      logger.warning(
        "The sync marker on \(topics.ownSync) did not come back within 10 s (does the broker's ACL let this host publish and subscribe to it?); going on without it."
      )
      synced(at: time)
    }
    if statusDirty { reportStatus(at: time, now: false) }
  }

  /// When `tick` has something to do next; `nil` when nothing waits.
  public var nextDeadline: UInt64? {
    var deadlines: [UInt64] = []
    if synced {
      if let due = coalescer.nextDeadline { deadlines.append(due) }
      if let retry = forwards.nextRetry { deadlines.append(retry) }
      if let again = announceAgainAt { deadlines.append(again) }
    }
    if case .syncing(_, let since) = brokerPhase { deadlines.append(since + MeshCore.syncTimeout) }
    if statusDirty { deadlines.append(lastStatusAt + 1_000_000) }
    return deadlines.min()
  }
}
