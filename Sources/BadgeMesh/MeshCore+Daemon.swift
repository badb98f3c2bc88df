import BadgeCore

extension MeshCore {
  /// The connection to the daemon is up: say who we are, take the forward outbox, watch the
  /// shared channels (and do-not-disturb, which every watcher is pushed).
  public func daemonConnected(at time: MeshTime) {
    daemonPhase = .greeting
    awaiting.removeAll()
    send(DaemonLink.hello(host: host), .hello)
    send(DaemonLink.takeForwards, .forwards)
    if !config.share.isEmpty {
      send(DaemonLink.watch(config.share), .watch)
    } else if config.dnd == .shared {
      send(DaemonLink.watch([]), .watch)
    }
  }

  /// The connection to the daemon ended. What the daemon keeps (its outbox, its mirrors) it
  /// lists again on the next one; until then this machine is `offline` to the others, who
  /// then send their writes again when it is back.
  public func daemonClosed(at time: MeshTime) {
    let wasUp = daemonPhase != .down
    daemonPhase = .down
    awaiting.removeAll()
    forwards.removeAll()
    localStates.removeAll()
    coalescer.reset()
    if wasUp && brokerPhase != .down { publishOwnStatus() }
    reportStatus(at: time, now: true)
  }

  /// One line from the daemon.
  public func daemonLine(_ line: String, at time: MeshTime) {
    let parsed = DaemonLink.parse(line)
    switch parsed {
    case .forward(let id, let channel, let command):
      forwardTaken(ForwardedWrite(id: id, channel: channel, command: command), at: time)
    case .unreadableForward(let text):
      logger.warning(
        "Cannot deliver the forwarded write '\(text)': this badged-mqtt does not know it; it stays in badged's outbox.")
    case .state(let state, pushed: true):
      localChanged(state, at: time)
    case .dnd(let state, pushed: true):
      localDNDChanged(state, at: time)
    case .ok, .error:
      guard let request = awaiting.pop() else {
        logger.debug("Dropped a reply from badged that answers nothing: \(line)")
        return
      }
      answered(request, parsed, at: time)
    case .state(let state, pushed: false):
      if case .watch = awaiting.first, state.owner == nil, config.shares(state.name) {
        localStates[state.name] = state
      } else if case .watchOne = awaiting.first {
        localChanged(state, at: time)
      }
    case .dnd(let state, pushed: false):
      if case .watch = awaiting.first { localDNDSnapshot(state, at: time) }
    case .other:
      break
    }
  }

  /// A reply's status line, for the request it answers.
  private func answered(_ request: Awaiting, _ line: DaemonLink.Line, at time: MeshTime) {
    let refusal: String?
    if case .error(let code, let message) = line { refusal = "\(code) \(message)" } else { refusal = nil }
    switch request {
    case .hello:
      if let refusal {
        daemonPhase = .down
        actions.append(.closeDaemon(reason: "badged refused the bridge: \(refusal)"))
      }
    case .forwards:
      if let refusal { logger.warning("badged did not hand over its forward outbox: \(refusal)") }
      if config.share.isEmpty && config.dnd != .shared { daemonReady(at: time) }
    case .watch:
      if let refusal { logger.warning("badged refused to watch the shared channels: \(refusal)") }
      daemonReady(at: time)
    case .watchOne:
      break
    case .mirror(let channel):
      if let refusal {
        if hidden.insert(channel).inserted {
          let owner = mirrors[channel]?.owner ?? "another machine"
          logger.notice("Not showing \(channel) from \(owner) here: \(refusal).", [.channel(channel)])
        }
      } else {
        hidden.remove(channel)
      }
    case .apply(let channel, let command, let route):
      if let refusal { logger.debug("badged refused \(command.op) on \(channel) for another machine: \(refusal)") }
      guard let route else { return }
      let answer = CommandAnswer(id: command.id, error: refusal)
      publish(MeshMessage(topic: route.topic, payload: answer.payload, retain: false, correlation: route.correlation))
    case .other(let what):
      if let refusal { logger.warning("badged refused \(what): \(refusal)") }
    }
  }

  /// The daemon's snapshot is in: tell it what this bridge knows, then act as owner.
  private func daemonReady(at time: MeshTime) {
    daemonPhase = .ready
    for (channel, state) in mirrors.sorted(by: { $0.key < $1.key }) {
      send(DaemonLink.mirror(channel, state), .mirror(channel))
    }
    for (name, info) in hosts.sorted(by: { $0.key < $1.key }) where info.online != nil {
      sendStale(name, info, brokerUp: synced)
    }
    if let remote = pendingRemoteDND {
      pendingRemoteDND = nil
      applyRemoteDND(remote, at: time)
    }
    if brokerPhase != .down { publishOwnStatus() }
    lastStatus = nil
    reconcile(at: time)
    reportStatus(at: time, now: true)
  }

  func sendStale(_ name: String, _ info: HostInfo, brokerUp: Bool) {
    let stale = !(brokerUp && info.online == true)
    send(DaemonLink.stale(host: name, stale, since: info.lastHeard))
  }

  /// The bridge's state for the daemon (`badgectl`) and the service manager: at once when
  /// `now`, else at most once a second.
  func reportStatus(at time: MeshTime, now: Bool) {
    let status = DaemonLink.status(
      connected: synced, broker: config.broker.description, pending: forwards.count, error: synced ? nil : brokerError)
    guard status != lastStatus else {
      statusDirty = false
      return
    }
    guard now || time.monotonic >= lastStatusAt + 1_000_000 else {
      statusDirty = true
      return
    }
    statusDirty = false
    lastStatusAt = time.monotonic
    lastStatus = status
    if daemonReady { send(status) }
    actions.append(.status(summary))
  }

  /// One line for `systemctl status`.
  var summary: String {
    let sharing = "sharing \(claims.held.count), mirroring \(mirrors.count), \(forwards.count) writes waiting"
    switch brokerPhase {
    case .synced: return "Connected to \(config.broker); \(sharing)"
    case .syncing: return "Connecting to \(config.broker); \(sharing)"
    case .down: return "Not connected to \(config.broker)\(brokerError.map { ": \($0)" } ?? ""); \(sharing)"
    }
  }
}
