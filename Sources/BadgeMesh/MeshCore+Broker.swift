import BadgeCore

/// The broker's side of the router: its connection, its messages, its going, and the timers.
extension MeshCore {
  /// The broker accepted the connection: subscribe, then send the marker that comes back
  /// after every retained message, and say whether this machine is online.
  public func brokerConnected(at time: MeshTime) {
    let token = broker.connected(at: time)
    mirror.brokerConnected()
    owner.brokerConnected()
    homeAssistant.reset()
    let dndShared = config.dnd == .shared
    outbox.append(
      .subscribe(topics.retainedSubscriptions(dndShared: dndShared, homeAssistant: config.homeAssistant), qos: 0))
    outbox.append(.subscribe(topics.messageSubscriptions(dndShared: dndShared), qos: 1))
    outbox.publish(MeshMessage(topic: topics.ownSync, payload: Array(token.utf8), retain: false))
    publishOwnStatus()
    reportStatus(at: time, now: true)
    settle()
  }

  /// The broker connection failed or ended: every owner is stale here until it is back.
  public func brokerDown(error: String?, at time: MeshTime) {
    let wasUp = broker.down(error: error)
    writes.brokerDown()
    mirror.brokerDown(markStale: wasUp && daemon.isReady, into: &outbox)
    reportStatus(at: time, now: true)
    settle()
  }

  /// A message the broker delivered, handed to the part it concerns. Everything in it is
  /// untrusted: what does not parse is dropped with a debug line and changes nothing.
  public func brokerMessage(_ message: IncomingMessage, at time: MeshTime) {
    defer { settle() }
    guard message.payload.count <= MeshLimits.maxPayloadBytes else {
      outbox.log(
        .debug,
        "Dropped a message of \(message.payload.count) bytes on \(message.topic.truncated(toUTF8: 200)): over "
          + "\(MeshLimits.maxPayloadBytes)."
      )
      return
    }
    guard let kind = topics.classify(message.topic) else {
      outbox.log(.debug, "Dropped a message on \(message.topic.truncated(toUTF8: 200)): not a topic of this bridge.")
      return
    }
    switch kind {
    case .sync:
      if broker.isAwaitedMarker(message.payload) { synced(at: time) }
    case .state(let channel, let host):
      stateHeard(channel, from: host, message.payload, at: time)
    case .oldState:
      // An emptied one is a user clearing the old layout away: nothing to say.
      if !message.payload.isEmpty {
        owner.refuse(
          message.topic, "the old layout, from a bridge of badged 0.1; upgrade that machine's badged", into: &outbox)
      }
    case .command(let channel):
      writes.commandHeard(channel, message, claims: owner.claims, links: links, into: &outbox)
    case .status(let name):
      mirror.statusHeard(name, message.payload, claims: owner.claims, links: links, at: time, into: &outbox)
    case .reply(let host):
      mirror.answerHeard(message, from: host, claims: owner.claims, links: links, at: time, into: &outbox)
    case .dndState:
      dnd.stateHeard(message.payload, links: links, at: time, into: &outbox)
    case .dndSet:
      dnd.setHeard(message.payload, links: links, at: time, into: &outbox)
    case .homeAssistantStatus:
      homeAssistant.statusHeard(message.payload, synced: broker.isSynced, at: time)
    }
  }

  /// A channel's retained state from `host`'s subtree: the owner's role checks it against the
  /// claims, and the mirror's shows what is another owner's.
  private func stateHeard(_ channel: ChannelName, from host: String, _ payload: [UInt8], at time: MeshTime) {
    let local = daemon.localStates[channel]
    if payload.isEmpty {
      // The owner stopped sharing the channel.
      guard let previous = owner.releaseHeard(channel, from: host, local: local, into: &outbox) else { return }
      mirror.forget(channel, daemonReady: daemon.isReady, into: &outbox)
      owner.takeOver(
        channel, releasedBy: previous, local: local, links: links, at: time, announcer: &homeAssistant, into: &outbox)
      return
    }
    let state: ChannelState
    do throws(PayloadError) {
      state = try ChannelState(payload: payload)
    } catch {
      outbox.log(.debug, "Dropped a state of \(channel): \(error).", [.channel(channel)])
      return
    }
    guard owner.hasRoom(for: channel), mirror.hasRoom(forHost: state.owner) else {
      outbox.log(
        .debug,
        "Dropped a state of \(channel): \(MeshLimits.maxChannels) channels or \(MeshLimits.maxHosts) hosts are "
          + "known already."
      )
      return
    }
    let links = self.links
    if owner.stateHeard(
      channel, state, from: host, local: local, links: links, at: time, announcer: &homeAssistant, into: &outbox)
    {
      mirror.mirror(channel, state, daemonReady: links.daemonReady, synced: links.synced, at: time, into: &outbox)
    }
  }

  /// Every retained message of the subscriptions has come: claims are known.
  private func synced(at time: MeshTime) {
    broker.markSynced()
    reconcile(at: time)
    writes.synced(claims: owner.claims, links: links, into: &outbox)
    mirror.sendForwards(synced: true, at: time, into: &outbox)
    reportStatus(at: time, now: true)
  }

  /// Timers: coalesced states due, Home Assistant's configs to send again, answers overdue,
  /// the sync marker late, a status to send.
  public func tick(at time: MeshTime) {
    defer { settle() }
    if broker.isSynced {
      owner.tick(at: time, into: &outbox)
      homeAssistant.tick(at: time, held: { owner.claims.held.sorted() }, into: &outbox)
      mirror.tick(at: time, into: &outbox)
    }
    if broker.markerOverdue(now: time.monotonic, topic: topics.ownSync, into: &outbox) { synced(at: time) }
    if status.isDirty { reportStatus(at: time, now: false) }
  }

  /// When `tick` has something to do next; `nil` when nothing waits.
  public var nextDeadline: UInt64? {
    var deadlines: [UInt64?] = [broker.nextDeadline, status.nextDeadline]
    if broker.isSynced {
      deadlines += [owner.nextDeadline, mirror.nextDeadline, homeAssistant.nextDeadline]
    }
    return deadlines.compactMap { $0 }.min()
  }
}
