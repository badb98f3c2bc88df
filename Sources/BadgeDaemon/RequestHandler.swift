import BadgeCore
import BadgeProtocol
import BadgeSystem

/// Carries out requests: the protocol's commands applied to the store, with their replies.
extension Server {
  /// Parses one line and replies to it in the client's output.
  func handleLine(_ line: UnsafeRawBufferPointer, from client: Client) {
    guard let parsed = RequestParser.parse(line) else { return }  // an empty line
    switch parsed {
    case .success(let request): handle(request, from: client)
    case .failure(let error):
      logger.debug("Client \(client.id): \(error.description)")
      ReplyEncoder.appendError(error, to: &client.output)
    }
  }

  func handle(_ request: Request, from client: Client) {
    let now = loop.now
    switch request {
    case .increment(let name, let n): mutate(.increment(n), name, client, command: "INCR")
    case .decrement(let name, let n): mutate(.decrement(n), name, client, command: "DECR")
    case .set(let name, let n): mutate(.set(n), name, client, command: "SET")
    case .clear(let name): mutate(.set(0), name, client, command: "CLEAR")
    case .mute(let name): mutate(.mute, name, client, command: "MUTE")
    case .unmute(let name): mutate(.unmute, name, client, command: "UNMUTE")
    case .configure(let name, let set, let reset):
      mutate(.configure(set: set, reset: reset), name, client, command: "CONFIGURE")
    case .clearAll:
      if refuseChange(client) { return }
      store.clearAll(now: now) { outcome in
        changed(outcome, by: client)
        ReplyEncoder.appendState(outcome.channel, kind: .state, now: now, to: &client.output)
      }
      ReplyEncoder.appendOK(to: &client.output)
    case .seen(let name): mutate(.seen, name, client, command: "SEEN")
    case .seenAll:
      if refuseChange(client) { return }
      store.seeAll(now: now) { outcome in
        changed(outcome, by: client)
        ReplyEncoder.appendState(outcome.channel, kind: .state, now: now, to: &client.output)
      }
      ReplyEncoder.appendOK(to: &client.output)
    case .pulse(let name, let ms): pulse(name, for: ms, client)
    case .dnd(let request): doNotDisturb(request, client)
    case .get(let name):
      ReplyEncoder.appendState(store.channel(named: name), kind: .state, now: now, to: &client.output)
      ReplyEncoder.appendOK(to: &client.output)
    case .list:
      for channel in store.listed {
        ReplyEncoder.appendState(channel, kind: .state, now: now, to: &client.output)
      }
      ReplyEncoder.appendOK(to: &client.output)
    case .watch(let patterns):
      ReplyEncoder.appendDND(store.dnd, kind: .state, now: now, to: &client.output)
      for channel in snapshot(for: patterns) {
        ReplyEncoder.appendState(channel, kind: .state, now: now, to: &client.output)
      }
      startWatching(client, patterns)
      ReplyEncoder.appendOK("watching", to: &client.output)
    case .unwatch:
      stopWatching(client)
      ReplyEncoder.appendOK(to: &client.output)
    case .hello:
      ReplyEncoder.appendData(
        "badged \(BadgedVersion.current) protocol=\(ProtocolInfo.version)", to: &client.output)
      ReplyEncoder.appendOK(to: &client.output)
    case .ping:
      ReplyEncoder.appendOK("pong", to: &client.output)
    case .reload:
      reload(for: client)
    case .quit:
      ReplyEncoder.appendOK("bye", to: &client.output)
      client.closeAfterFlush = true
    }
  }

  /// Applies a change, records and pushes it when something changed, and replies with the
  /// channel's state line.
  private func mutate(_ mutation: Store.Mutation, _ name: ChannelName, _ client: Client, command: String) {
    let now = loop.now
    if refuseChange(client) { return }
    do {
      let outcome = try store.apply(mutation, to: name, now: now)
      if outcome.changed {
        changed(outcome, by: client)
        logger.debug(
          "Client \(client.id): \(command) '\(name)', count \(outcome.channel.count).",
          [.channel(name)] + (client.pid.map { [.clientPID($0)] } ?? []))
      }
      ReplyEncoder.appendState(outcome.channel, kind: .state, now: now, to: &client.output)
      ReplyEncoder.appendOK(to: &client.output)
    } catch {
      switch error {
      case .countOutOfRange(let current):
        ReplyEncoder.appendError(
          ProtocolError(.outOfRange, "\(command) would take '\(name)' (now \(current)) past the largest count, \(Limits.maxCount)"),
          to: &client.output)
      }
    }
  }

  /// `RELOAD`: `OK reloaded`, or `ERR failed <file:line: reason>` with the old config kept.
  private func reload(for client: Client) {
    guard let reloadConfig else {
      ReplyEncoder.appendError(ProtocolError(.failed, "This daemon cannot reload"), to: &client.output)
      return
    }
    do throws(ConfigError) {
      try reloadConfig()
      ReplyEncoder.appendOK("reloaded", to: &client.output)
    } catch {
      ReplyEncoder.appendError(ProtocolError(.failed, error.description), to: &client.output)
    }
  }

  /// While changes cannot be saved, replies `ERR failed` and returns true.
  func refuseChange(_ client: Client) -> Bool {
    guard let failure = persistenceFailure else { return false }
    ReplyEncoder.appendError(
      ProtocolError(.failed, "Changes are refused until the state can be saved again: \(failure)"),
      to: &client.output)
    return true
  }

  /// The channels a `WATCH` reply starts with: every channel named exactly (even at 0), and
  /// every listed channel a glob matches (all listed channels without patterns), by name.
  private func snapshot(for patterns: [ChannelPattern]) -> [Channel] {
    if patterns.isEmpty { return store.listed }
    var names = Set<ChannelName>()
    var result: [Channel] = []
    for pattern in patterns {
      if let name = pattern.exactName, names.insert(name).inserted {
        result.append(store.channel(named: name))
      }
    }
    for channel in store.listed where !names.contains(channel.name) {
      if patterns.contains(where: { $0.isGlob && $0.matches(channel.name) }) {
        names.insert(channel.name)
        result.append(channel)
      }
    }
    return result.sorted { $0.name < $1.name }
  }
}
