import BadgeCore
import BadgeProtocol
import BadgeSystem

/// Carries out requests: each command's meaning against the store, with its reply appended to
/// the peer's output. Changes go through `GroupCommit`, `WATCH` and `UNWATCH` through
/// `Subscriptions`. Pure: nothing here touches a socket or a clock (`now` comes with the line,
/// and the reader sets the store's `today` before it hands lines over).
final class CommandExecutor {
  let store: Store
  let subscriptions: Subscriptions
  let commit: GroupCommit
  var logger: Logger
  /// Carries out `RELOAD` (the daemon's one reload, shared with SIGHUP).
  var reloadConfig: (() throws(ConfigError) -> Void)?

  init(store: Store, subscriptions: Subscriptions, commit: GroupCommit, logger: Logger) {
    self.store = store
    self.subscriptions = subscriptions
    self.commit = commit
    self.logger = logger
  }

  /// Parses one line and replies to it in the peer's output.
  func handleLine(_ line: UnsafeRawBufferPointer, from peer: Peer, now: UInt64) {
    guard let parsed = RequestParser.parse(line) else { return }  // an empty line
    switch parsed {
    case .success(let request): execute(request, from: peer, now: now)
    case .failure(let error):
      logger.debug("Client \(peer.id): \(error.description)")
      ReplyEncoder.appendError(error, to: &peer.output)
    }
  }

  func execute(_ request: Request, from peer: Peer, now: UInt64) {
    switch request {
    case .increment(let name, let n): mutate(.increment(n), name, peer, now, command: "INCR")
    case .decrement(let name, let n): mutate(.decrement(n), name, peer, now, command: "DECR")
    case .set(let name, let n): mutate(.set(n), name, peer, now, command: "SET")
    case .clear(let name): mutate(.set(0), name, peer, now, command: "CLEAR")
    case .mute(let name): mutate(.mute, name, peer, now, command: "MUTE")
    case .unmute(let name): mutate(.unmute, name, peer, now, command: "UNMUTE")
    case .configure(let name, let set, let reset):
      mutate(.configure(set: set, reset: reset), name, peer, now, command: "CONFIGURE")
    case .clearAll:
      if refuseChange(peer) { return }
      store.clearAll(now: now) { outcome in
        commit.changed(outcome, by: peer)
        ReplyEncoder.appendState(outcome.channel, kind: .state, now: now, to: &peer.output)
      }
      ReplyEncoder.appendOK(to: &peer.output)
    case .seen(let name): mutate(.seen, name, peer, now, command: "SEEN")
    case .seenAll: seeAll(peer, now: now)
    case .pulse(let name, let ms): pulse(name, for: ms, peer, now: now)
    case .dnd(let request): doNotDisturb(request, peer, now: now)
    case .get(let name):
      appendState(store.channel(named: name), to: peer, now: now)
      ReplyEncoder.appendOK(to: &peer.output)
    case .list:
      for channel in store.listed { appendState(channel, to: peer, now: now) }
      ReplyEncoder.appendOK(to: &peer.output)
    case .watch(let patterns):
      let limit = store.config.limits.maxWatchPatterns
      let total = Subscriptions.patternCount(peer, adding: patterns)
      guard total <= limit else {
        ReplyEncoder.appendError(
          ProtocolError(.tooManyPatterns, "WATCH would take this connection to \(total) patterns, past \(limit) ([limits] max_watch_patterns)"),
          to: &peer.output)
        return
      }
      appendDND(to: peer, now: now)
      for channel in snapshot(for: patterns) { appendState(channel, to: peer, now: now) }
      subscriptions.start(peer, patterns, stagedEvents: commit.stagedEvents)
      ReplyEncoder.appendOK("watching", to: &peer.output)
    case .unwatch:
      subscriptions.stop(peer)
      ReplyEncoder.appendOK(to: &peer.output)
    case .hello:
      ReplyEncoder.appendData(
        "badged \(BadgedVersion.current) protocol=\(ProtocolInfo.version)", to: &peer.output)
      ReplyEncoder.appendOK(to: &peer.output)
    case .ping:
      ReplyEncoder.appendOK("pong", to: &peer.output)
    case .stats(let period, let patterns):
      stats(period, patterns, for: peer)
    case .reload:
      reload(for: peer)
    case .quit:
      ReplyEncoder.appendOK("bye", to: &peer.output)
      peer.closeAfterFlush = true
    }
  }

  /// A state line in a reply; the peer now depends on the turn if it shows unsaved changes.
  @inline(__always)
  private func appendState(_ channel: Channel, to peer: Peer, now: UInt64) {
    commit.observed(by: peer)
    ReplyEncoder.appendState(channel, kind: .state, now: now, to: &peer.output)
  }

  /// Why a change was not made.
  enum ChangeRefusal: Error, CustomStringConvertible {
    /// Changes cannot be saved now (`StorageFailurePolicy`); the error is the reply.
    case notSaved(ProtocolError)
    /// The store refused the mutation.
    case refused(Store.MutationError)

    var description: String {
      switch self {
      case .notSaved(let error): return error.message
      case .refused(.countOutOfRange): return "the count would pass the largest count, \(Limits.maxCount)"
      case .refused(.full(let limit)): return "\(limit) channels are kept already ([limits] max_channels)"
      }
    }
  }

  /// Applies `mutation` to `name`; a change is recorded and its event staged. The one path of
  /// every change, whether a client's request (`peer`) or the bus bridges' (no peer), so the
  /// change log and watchers cannot tell them apart.
  @discardableResult
  func apply(_ mutation: Store.Mutation, to name: ChannelName, by peer: Peer?, now: UInt64) throws(ChangeRefusal) -> Store.Outcome {
    if let refusal = commit.policy.refusal { throw .notSaved(refusal) }
    let outcome: Store.Outcome
    do throws(Store.MutationError) {
      outcome = try store.apply(mutation, to: name, now: now)
    } catch {
      throw .refused(error)
    }
    if outcome.changed { commit.changed(outcome, by: peer) }
    return outcome
  }

  /// Applies a change and replies with the channel's state line.
  private func mutate(_ mutation: Store.Mutation, _ name: ChannelName, _ peer: Peer, _ now: UInt64, command: String) {
    do throws(ChangeRefusal) {
      let outcome = try apply(mutation, to: name, by: peer, now: now)
      if outcome.changed {
        logger.debug(
          "Client \(peer.id): \(command) '\(name)', count \(outcome.channel.count).",
          [.channel(name)] + (peer.pid.map { [.clientPID($0)] } ?? []))
      }
      appendState(outcome.channel, to: peer, now: now)
      ReplyEncoder.appendOK(to: &peer.output)
    } catch {
      switch error {
      case .notSaved(let refusal):
        ReplyEncoder.appendError(refusal, to: &peer.output)
      case .refused(.countOutOfRange(let current)):
        ReplyEncoder.appendError(
          ProtocolError(.outOfRange, "\(command) would take '\(name)' (now \(current)) past the largest count, \(Limits.maxCount)"),
          to: &peer.output)
      case .refused(.full(let limit)):
        ReplyEncoder.appendError(
          ProtocolError(.full, "\(command) would add channel '\(name)' to the \(limit) kept already ([limits] max_channels); clear one first"),
          to: &peer.output)
      }
    }
  }

  /// `RELOAD`: `OK reloaded`, or `ERR failed <file:line: reason>` with the old config kept.
  private func reload(for peer: Peer) {
    guard let reloadConfig else {
      ReplyEncoder.appendError(ProtocolError(.failed, "This daemon cannot reload"), to: &peer.output)
      return
    }
    do throws(ConfigError) {
      try reloadConfig()
      ReplyEncoder.appendOK("reloaded", to: &peer.output)
    } catch {
      ReplyEncoder.appendError(ProtocolError(.failed, error.description), to: &peer.output)
    }
  }

  /// While changes cannot be saved, replies `ERR failed` and returns true.
  func refuseChange(_ peer: Peer) -> Bool {
    guard let refusal = commit.policy.refusal else { return false }
    ReplyEncoder.appendError(refusal, to: &peer.output)
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
