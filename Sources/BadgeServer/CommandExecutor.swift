import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol

/// Carries out requests: each command's meaning against the store, with its reply appended to
/// the client's output. Changes go through `GroupCommit`, `WATCH` and `UNWATCH` through
/// `Subscriptions`. `now` comes with the line: the turn's instant.
final class CommandExecutor<Client: Peer> {
  /// The config's `[limits]` in force (`ServerCore.config`'s): `WATCH` holds to
  /// `max_watch_patterns`.
  var limits: ResourceLimits
  let store: Store
  let subscriptions: Subscriptions<Client>
  let commit: GroupCommit<Client>
  let logger: Logger
  /// Refusals a peer can cause over and over (the bridge's mirrors past their room), logged
  /// once per interval with their count.
  let warnings: RepeatedWarnings
  /// The bridge to other machines, if one is connected.
  let bridge = BridgeLink<Client>()
  /// The sources program, if one is connected.
  let sources = SourcesLink<Client>()
  let turn: Turn
  /// Carries out `RELOAD`.
  weak var reloader: (any ConfigReloading)?

  init(
    limits: ResourceLimits, store: Store, subscriptions: Subscriptions<Client>, commit: GroupCommit<Client>,
    turn: Turn, logger: Logger, warnings: RepeatedWarnings
  ) {
    self.limits = limits
    self.store = store
    self.turn = turn
    self.subscriptions = subscriptions
    self.commit = commit
    self.logger = logger
    self.warnings = warnings
  }

  /// Parses one line and replies to it in the client's output.
  func handleLine(_ line: UnsafeRawBufferPointer, from client: Client, now: UInt64) {
    var id: RequestID?
    guard let parsed = RequestParser.parse(line, id: &id) else { return }  // an empty line
    switch parsed {
    case .success(let request):
      if let id, answeredByID(id, request, client, now: now) { return }
      execute(request, id: id, from: client, now: now)
    case .failure(let error):
      logger.debug("Client \(client.id): \(error.description)")
      ReplyEncoder.appendError(error, to: &client.output)
    }
  }

  /// Carries out `request`; `id` is its id, new (`answeredByID` said so), which is saved with
  /// whatever the request changes (only requests that take one have one: the parser sees to it).
  func execute(_ request: Request, id: RequestID?, from client: Client, now: UInt64) {
    switch request {
    case .write(let name, .pulse(let ms)): pulse(name, for: ms, client, now: now)
    case .write(let name, .report(let count, let arrived, let unseen)):
      report(.report(count: count, arrived: arrived, unseen: unseen), of: name, id: id, client, now: now)
    case .write(let name, let write): mutate(.write(write), name, id: id, client, now, command: write.command)
    case .configure(let name, let set, let reset):
      mutate(.configure(set: set, reset: reset), name, id: id, client, now, command: .configure)
    case .clearAll: writeAll(.clear(upTo: nil), id: id, client, now: now)
    case .seenAll: writeAll(.seen(upTo: nil), id: id, client, now: now)
    case .bridge, .mirror, .forgetMirror, .stale, .forwards, .delivered, .remoteDND:
      bridgeRequest(request, client, now: now)
    case .sources, .source: sourcesRequest(request, client, now: now)
    case .dnd(let request): doNotDisturb(request, client, now: now, id: id)
    case .get(let name):
      appendState(store.channel(named: name), to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
    case .list:
      startReply(.list, for: client, now: now)
    case .watch(let list, let since):
      let patterns = ChannelPatternSet(list)
      let limit = limits.maxWatchPatterns
      let total = Subscriptions<Client>.patternCount(client, adding: patterns)
      guard total <= limit else {
        ReplyEncoder.appendError(
          ProtocolError(
            .tooManyPatterns,
            "WATCH would take this connection to \(total) patterns, past \(limit) ([limits] max_watch_patterns)"),
          to: &client.output)
        return
      }
      appendDND(to: client, now: now)
      subscriptions.start(client, patterns, stagedEvents: commit.stagedEvents)
      startWatchReply(patterns, since: since, for: client, now: now)
    case .unwatch:
      subscriptions.stop(client)
      ReplyEncoder.appendOK(to: &client.output)
    case .hello:
      ReplyEncoder.appendData(
        "badged \(BadgedVersion.current) protocol=\(ProtocolInfo.version)", to: &client.output)
      ReplyEncoder.appendOK(to: &client.output)
    case .ping:
      ReplyEncoder.appendOK("pong", to: &client.output)
    case .stats(let period, let patterns):
      stats(period, patterns, for: client, now: now)
    case .reload:
      reload(for: client)
    case .quit:
      ReplyEncoder.appendOK("bye", to: &client.output)
      client.quit()
    }
  }

  /// A state line in a reply: the staged event's `line` when the state is that of an event of
  /// this turn (its bytes, with `STATE` in front), else encoded here. The client now depends on
  /// the turn if it shows unsaved changes.
  @inline(__always)
  func appendState(_ channel: Channel, line: Range<Int>? = nil, to client: Client, now: UInt64) {
    commit.observed(by: client)
    if let line {
      commit.events.appendReply(line, to: &client.output)
    } else {
      ReplyEncoder.appendState(channel, kind: .state, now: now, to: &client.output)
    }
  }

  /// Applies `mutation` to `name`; a change is recorded with `id`, the id of the request that
  /// made it (`nil`: none), and its event staged; an id with no change is recorded on its own.
  /// The one path of every change, whether a client's request or the bus bridges' (no client,
  /// no id), so the change log and watchers cannot tell them apart; the id is handed to it by
  /// every caller, so that no change can leave its request's id unsaved.
  @discardableResult
  func apply(
    _ mutation: Store.Mutation, to name: ChannelName, by client: Client?, id: RequestID?, now: UInt64
  ) throws(ChangeRefusal) -> (outcome: Store.Outcome, line: Range<Int>?) {
    if let refusal = commit.policy.refusal { throw .notSaved(refusal) }
    let outcome: Store.Outcome
    do throws(Store.MutationError) {
      outcome = try store.apply(mutation, to: name, now: now)
    } catch {
      throw .refused(error)
    }
    guard outcome.changed else {
      if let id, let client { saveAlone(id, by: client) }
      return (outcome, nil)
    }
    guard let id else { return (outcome, commit.changed(outcome, by: client)) }
    store.saveID(ofChange: id)
    return (outcome, commit.changed(outcome, by: client, id: id))
  }

  /// Saves the id of a request whose changes, if any, carry none (`CLEAR *`, `SEEN *`, a
  /// request that changed nothing), and records it.
  func saveAlone(_ id: RequestID, by client: Client) {
    commit.saved(SavedRequestID(seq: store.saveID(id), id: id), by: client)
  }

  /// Answers a request whose id is saved already, and returns true: a retry of the same request
  /// gets the state as it is now and `OK repeated`, carried out no second time; another request
  /// with the id is refused. Returns false for a new id: the request is to be carried out.
  private func answeredByID(_ id: RequestID, _ request: Request, _ client: Client, now: UInt64) -> Bool {
    switch store.lookup(id) {
    case .unknown:
      return false
    case .reused:
      ReplyEncoder.appendError(
        ProtocolError(
          .idReused, "The id was given to another request before; nothing changed (a new request needs a new id)"),
        to: &client.output)
    case .repeated:
      logger.debug("Client \(client.id): a retry of '\(request.canonical)', answered without carrying it out.")
      switch request {
      case .write(let name, _), .configure(let name, _, _):
        appendState(store.channel(named: name), to: client, now: now)
      case .dnd:
        appendDND(to: client, now: now)
      default:
        break  // `CLEAR *`, `SEEN *`: no channel is shown
      }
      ReplyEncoder.appendRepeated(to: &client.output)
    }
    return true
  }

  /// Applies a change (with its request's `id`) and replies with the channel's state line.
  func mutate(
    _ mutation: Store.Mutation, _ name: ChannelName, id: RequestID?, _ client: Client, _ now: UInt64,
    command: @autoclosure () -> Request.Command
  ) {
    do throws(ChangeRefusal) {
      let (outcome, line) = try apply(mutation, to: name, by: client, id: id, now: now)
      if outcome.changed {
        logger.debug(
          "Client \(client.id): \(command().word) '\(name)', count \(outcome.channel.count).",
          [.channel(name)] + (client.pid.map { [.clientPID($0)] } ?? []))
      }
      if outcome.channel.isSourced { sourcedChannelWritten(mutation, outcome.channel) }
      appendState(outcome.channel, line: line, to: client, now: now)
      ReplyEncoder.appendOK(to: &client.output)
    } catch {
      appendRefusal(error, command: command(), name, client)
    }
  }

  /// `CLEAR *` and `SEEN *`: `write` (a clear or a sight of every item) to every channel it
  /// changes, each with a state line; the request's `id` is saved on its own, since no change
  /// carries it.
  private func writeAll(_ write: ChannelWrite, id: RequestID?, _ client: Client, now: UInt64) {
    if refuseChange(client) { return }
    store.writeAll(write, now: now) { outcome in
      appendState(outcome.channel, line: commit.changed(outcome, by: client), to: client, now: now)
    }
    if let id { saveAlone(id, by: client) }
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `RELOAD`: `OK reloaded`, or `ERR failed <file:line: reason>` with the old config kept.
  private func reload(for client: Client) {
    guard let reloader else {
      ReplyEncoder.appendError(ProtocolError(.failed, "This daemon cannot reload"), to: &client.output)
      return
    }
    do throws(ConfigError) {
      try reloader.reload()
      ReplyEncoder.appendOK("reloaded", to: &client.output)
    } catch {
      ReplyEncoder.appendError(ProtocolError(.failed, error.description), to: &client.output)
    }
  }

  /// While changes cannot be saved, replies `ERR failed` and returns true.
  func refuseChange(_ client: Client) -> Bool {
    guard let refusal = commit.policy.refusal else { return false }
    ReplyEncoder.appendError(refusal, to: &client.output)
    return true
  }
}
