import BadgeCore

extension MeshCore {
  /// A channel's retained state, from its owner (or from anything that can write the topic).
  func stateHeard(_ channel: ChannelName, _ payload: [UInt8], at time: MeshTime) {
    if payload.isEmpty {
      released(channel, at: time)
      return
    }
    let state: ChannelState
    do throws(PayloadError) {
      state = try ChannelState(payload: payload)
    } catch {
      logger.debug("Dropped a state of \(channel): \(error).", [.channel(channel)])
      return
    }
    guard claims.owner(of: channel) != nil || claims.owners.count < MeshLimits.maxChannels,
      hosts[state.owner] != nil || hosts.count < MeshLimits.maxHosts
    else {
      logger.debug(
        "Dropped a state of \(channel): \(MeshLimits.maxChannels) channels or \(MeshLimits.maxHosts) hosts are known already."
      )
      return
    }
    let claim = Claim(host: state.owner, claimed: state.claimed)
    switch claims.heard(channel, claim) {
    case .owner:
      if state.owner == host {
        if !config.shares(channel) {
          release(channel)
        } else if let ours = published[channel], state != ours, let local = localStates[channel] {
          // Not the state last published from here: an earlier one coming back during a burst,
          // or one another client wrote in this machine's name, which mirrors would show.
          // This machine's latest goes out again, coalesced like any change.
          logger.debug(
            "Heard a state of \(channel) in this machine's name that is not its latest; publishing it again.",
            [.channel(channel)])
          own(channel, local, at: time)
        }
      } else {
        mirror(channel, state, at: time)
      }
    case .earlier(let previous):
      if state.owner == host {
        // This machine's claim from before a restart: kept while the channel is shared.
        if !config.shares(channel) {
          release(channel)
        } else if let local = localStates[channel] {
          own(channel, local, at: time)
        }
        return
      }
      if let previous, previous.host == host {
        logger.notice(
          "\(channel) was claimed earlier by \(state.owner); giving way and mirroring it here.", [.channel(channel)])
        yielded.insert(channel)
        coalescer.drop(channel)
        if config.homeAssistant, announced.remove(channel) != nil {
          publish(MeshMessage(topic: homeAssistant.sensorTopic(channel), payload: [], retain: true))
        }
      } else if let previous {
        logger.info(
          "\(channel) is owned by \(state.owner), whose claim is earlier than \(previous.host)'s.", [.channel(channel)])
      }
      mirror(channel, state, at: time)
    case .later(let owner):
      logger.debug(
        "Dropped a state of \(channel) naming \(state.owner): \(owner.host) claimed it first.", [.channel(channel)])
      if owner.host == host { republish(channel, at: time) }
    }
  }

  /// An empty retained state: the owner stopped sharing the channel.
  private func released(_ channel: ChannelName, at time: MeshTime) {
    if claims.isHeldHere(channel) {
      // Someone else emptied this machine's retained state: publish it again.
      if config.shares(channel) { republish(channel, at: time) }
      return
    }
    guard let previous = claims.release(channel) else { return }
    if mirrors.removeValue(forKey: channel) != nil {
      hidden.remove(channel)
      if daemonReady { send(DaemonLink.forget(channel)) }
    }
    logger.info("\(previous.host) stopped sharing \(channel).", [.channel(channel)])
    yielded.remove(channel)
    if config.shares(channel), let local = localStates[channel] { own(channel, local, at: time) }
  }

  /// Shows another machine's state of a channel here.
  func mirror(_ channel: ChannelName, _ state: ChannelState, at time: MeshTime) {
    var info = hosts[state.owner] ?? HostInfo()
    info.lastHeard = time.wallMs / 1000
    hosts[state.owner] = info
    guard config.mirrors(channel) || config.shares(channel) else { return }
    guard mirrors[channel] != state else { return }
    mirrors[channel] = state
    if daemonReady { send(DaemonLink.mirror(channel, state), .mirror(channel)) }
  }

  /// A host's status: `online`, or `offline` (also its last will).
  func statusHeard(_ name: String, _ payload: [UInt8], at time: MeshTime) {
    let online: Bool
    if payload.elementsEqual("online".utf8) {
      online = true
    } else if payload.elementsEqual("offline".utf8) {
      online = false
    } else {
      logger.debug("Dropped a status of \(name) that is neither online nor offline.")
      return
    }
    guard name != host else {
      // This machine's last will from an earlier connection, delivered after this one began:
      // say online again, or the others would take this machine for gone.
      if !online && daemonReady && brokerPhase != .down {
        logger.info(
          "The broker said this machine went offline (an earlier connection's last will); saying online again.")
        publishOwnStatus()
      }
      return
    }
    guard hosts[name] != nil || hosts.count < MeshLimits.maxHosts else {
      logger.debug("Dropped a status of \(name): \(MeshLimits.maxHosts) hosts are known already.")
      return
    }
    var info = hosts[name] ?? HostInfo()
    let changed = info.online != online
    info.online = online
    if online { info.lastHeard = time.wallMs / 1000 }
    hosts[name] = info
    guard changed else { return }
    if daemonReady { sendStale(name, info, brokerUp: brokerPhase != .down) }
    if online && synced {
      // Back: whatever it missed is sent again, in order.
      let again = forwards.toSend(now: time.monotonic) { self.claims.owner(of: $0)?.host == name }
      for write in again { publishWrite(write) }
    }
  }

  /// The daemon handed over a write to a mirrored channel.
  func forwardTaken(_ write: ForwardedWrite, at time: MeshTime) {
    guard forwards.add(write) else { return }
    sendNext(in: write.channel, at: time)
    statusDirty = true
  }

  /// Sends the writes not yet sent on this connection that are the first of their channels,
  /// in order.
  func sendForwards(at time: MeshTime) {
    guard synced else { return }
    for write in forwards.toSend(now: time.monotonic) { publishWrite(write) }
  }

  /// Sends the channel's first write if it waits: nothing else of the channel is on its way.
  func sendNext(in channel: ChannelName, at time: MeshTime) {
    guard synced, let write = forwards.next(in: channel, now: time.monotonic) else { return }
    publishWrite(write)
  }

  func publishWrite(_ write: ForwardedWrite) {
    var expiry: UInt32?
    if case .pulse(let ms) = write.command.write {
      // A pulse that arrives late is pointless: let the broker drop it when its window is over.
      expiry = UInt32(max(1, ((ms ?? 3000) + 999) / 1000))
    }
    publish(
      MeshMessage(
        topic: topics.command(to: write.channel), payload: write.command.payload, retain: false,
        responseTopic: topics.ownReply, correlation: Array(write.id.utf8), expirySeconds: expiry))
  }

  /// An owner's answer to a write of this machine's.
  func answerHeard(_ message: IncomingMessage, at time: MeshTime) {
    let answer: CommandAnswer
    do throws(PayloadError) {
      answer = try CommandAnswer(payload: message.payload)
    } catch {
      logger.debug("Dropped an answer: \(error).")
      return
    }
    guard let id = message.correlation.map({ String(decoding: $0, as: UTF8.self) }) ?? answer.id,
      RequestID.isValidToken(id),
      answer.id == nil || answer.id == id
    else {
      logger.debug("Dropped an answer whose correlation data is no request id, or not its own.")
      return
    }
    switch forwards.answered(id, answer) {
    case .delivered(let write, let refusal):
      if let refusal {
        let owner = claims.owner(of: write.channel)?.host ?? "its owner"
        logger.notice(
          "\(owner) refused \(write.command.op) on \(write.channel): \(refusal); its state stands.",
          [.channel(write.channel)])
      }
      if daemonReady { send(DaemonLink.delivered(id)) }
      statusDirty = true
      // The next write of its channel, which waited for this answer.
      sendNext(in: write.channel, at: time)
    case .retry(let write, let reason):
      logger.debug(
        "The owner of \(write.channel) could not apply \(write.command.op) yet (\(reason)); it is sent again later."
      )
    case .unknown:
      logger.debug("Dropped an answer to \(id): no such write waits.")
    }
  }
}
