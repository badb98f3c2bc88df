import BadgeCore

extension MeshCore {
  /// A shared channel of this machine changed (an event of the daemon's).
  func localChanged(_ state: DaemonLink.LocalState, at time: MeshTime) {
    // Mirrors are other machines' channels; a channel `share` does not name is not published.
    guard state.owner == nil, config.shares(state.name) else { return }
    localStates[state.name] = state
    own(state.name, state, at: time)
  }

  /// Claims a shared channel unless another machine owns it, and publishes its state
  /// (coalesced) while this machine owns it.
  func own(_ channel: ChannelName, _ local: DaemonLink.LocalState, at time: MeshTime) {
    guard daemonReady && synced else { return }
    let claim = claims.claim(channel, now: time.wallMs)
    guard claim.host == host else {
      if yielded.insert(channel).inserted {
        logger.notice(
          "\(channel) is shared by \(claim.host), which claimed it first; it is mirrored here instead.",
          [.channel(channel)])
      }
      return
    }
    yielded.remove(channel)
    let state = ChannelState(local.figures, owner: host, claimed: claim.claimed)
    if let now = coalescer.offer(channel, state, now: time.monotonic) { publishState(channel, now) }
    announce(channel)
  }

  func publishState(_ channel: ChannelName, _ state: ChannelState) {
    guard claims.isHeldHere(channel) else { return }
    published[channel] = state
    publish(MeshMessage(topic: topics.state(of: channel), payload: state.payload, retain: true))
  }

  /// Publishes the channel's state now, whatever waits: the retained state must name this
  /// machine again (another wrote over it).
  func republish(_ channel: ChannelName, at time: MeshTime) {
    guard let local = localStates[channel], let claim = claims.owner(of: channel), claim.host == host else { return }
    coalescer.drop(channel)
    publishState(channel, ChannelState(local.figures, owner: host, claimed: claim.claimed))
  }

  /// Stops sharing a channel this machine owned: its Home Assistant config and its retained
  /// state go (empty retained payloads), so mirrors forget it.
  func release(_ channel: ChannelName) {
    guard claims.isHeldHere(channel) else { return }
    if config.homeAssistant {
      publish(MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: [], retain: true))
      announced.remove(channel)
    }
    claims.release(channel)
    coalescer.drop(channel)
    published[channel] = nil
    publish(MeshMessage(topic: topics.state(of: channel), payload: [], retain: true))
    logger.info("Stopped sharing \(channel): no longer in [mqtt] share.", [.channel(channel)])
  }

  /// A write for a channel, from another machine (or anything with access to the topic).
  func commandHeard(_ channel: ChannelName, _ message: IncomingMessage, at time: MeshTime) {
    let command: ChannelCommand
    do throws(PayloadError) {
      command = try ChannelCommand(payload: message.payload)
    } catch {
      logger.debug("Dropped a command for \(channel): \(error).", [.channel(channel)])
      return
    }
    var route: ReplyRoute?
    if let topic = message.responseTopic {
      if topics.isReplyTopic(topic) {
        route = ReplyRoute(topic: topic, correlation: message.correlation ?? command.id.map { Array($0.utf8) })
      } else {
        logger.debug(
          "A command for \(channel) asks for its answer on \(topic.truncated(toUTF8: 200)), which is no host's reply topic; no answer will be sent."
        )
      }
    }
    guard synced else {
      guard earlyCommands.count < MeshCore.maxEarlyCommands else {
        logger.debug("Dropped a command for \(channel) that came before the retained states: too many wait already.")
        return
      }
      earlyCommands.append((channel, command, route))
      return
    }
    carryOut(channel, command, route)
  }

  /// Carries out a command on a channel this machine owns; others' commands are ignored.
  func carryOut(_ channel: ChannelName, _ command: ChannelCommand, _ route: ReplyRoute?) {
    guard claims.isHeldHere(channel) else {
      logger.debug("Ignored \(command.op) on \(channel): not owned here.")
      return
    }
    guard daemonReady else {
      logger.debug("Ignored \(command.op) on \(channel): badged is not reachable; its sender sends it again.")
      return
    }
    send(DaemonLink.request(channel, command), id: command.id, .apply(channel, command, route))
  }

  /// Home Assistant configs for every channel owned here and the do-not-disturb switch, those
  /// not yet sent on this connection. Without `dnd = shared` the switch's config is emptied
  /// instead, so that a switch left from when it was shared goes.
  func announceAll() {
    guard config.homeAssistant, synced else { return }
    for channel in claims.held.sorted() { announce(channel) }
    if !switchAnnounced {
      switchAnnounced = true
      let payload = config.dnd == .shared ? homeAssistant.switchConfig : []
      publish(MeshMessage(topic: homeAssistant.switchTopic, payload: payload, retain: true))
    }
  }

  func announce(_ channel: ChannelName) {
    guard config.homeAssistant, synced, claims.isHeldHere(channel), announced.insert(channel).inserted else { return }
    publish(
      MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: homeAssistant.sensorConfig(channel), retain: true)
    )
  }
}
