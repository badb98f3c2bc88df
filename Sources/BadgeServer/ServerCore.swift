import BadgeConfig
import BadgeCore
import BadgeLog
import BadgeProtocol

/// The server's decisions, without a socket or a clock of its own: the one owner of the parts
/// that decide (`CommandExecutor`, `GroupCommit`, `Subscriptions` with its `EventBacklog`,
/// `StorageFailurePolicy`, the `SendQueue`) and the door every change comes in by, whatever its
/// source: a client's request (`handleLine`), a bus bridge (`apply`, `pulse`), a timer
/// (`expirePulses`, `expireDND`, `tryRepair`), a reload (`reconfigure`).
///
/// Each of them belongs to the loop turn under way (`Turn`), whose time is read from the clock
/// once, by whichever comes first. `endTurn` commits the turn, publishes its events and has
/// the daemon send the output. The core is generic over the daemon's client type, so what it
/// hands back (a client to close, the queue to send) needs no cast.
public final class ServerCore<Client: Peer> {
  /// The config in force: the one the core was made with, or the last `reconfigure` put in
  /// force. The store keeps its own view of it (`Store.config`).
  public private(set) var config: DaemonConfig {
    didSet { executor.limits = config.limits }
  }
  public let store: Store
  public let turn: Turn
  /// The clients with output to send at the end of the turn.
  public let sendQueue: SendQueue<Client>
  public let policy: StorageFailurePolicy
  public let logger: Logger
  /// Warnings that a peer can cause over and over (an app on the bus past a bridge's limit),
  /// a line per reason at most once per interval and then a count, on the turn's clock; the
  /// daemon calls `flushWarnings` when `warnings.nextFlush` is due, so that a count is
  /// reported once its source went quiet.
  public let warnings: RepeatedWarnings
  let subscriptions: Subscriptions<Client>
  let commit: GroupCommit<Client>
  let executor: CommandExecutor<Client>

  /// Makes the core and its store, which takes its view of `config`.
  public init(config: DaemonConfig, clock: any TurnClock, logger: Logger) {
    self.config = config
    let store = Store(config: config.channels)
    self.store = store
    self.logger = logger
    warnings = RepeatedWarnings(logger: logger)
    turn = Turn(clock: clock, store: store)
    sendQueue = SendQueue(turn: turn)
    policy = StorageFailurePolicy(logger: logger, turn: turn)
    subscriptions = Subscriptions(sendQueue: sendQueue, turn: turn)
    commit = GroupCommit(store: store, subscriptions: subscriptions, policy: policy, turn: turn)
    executor = CommandExecutor(
      limits: config.limits, store: store, subscriptions: subscriptions, commit: commit, turn: turn, logger: logger,
      warnings: warnings)
  }

  // MARK: - The daemon's parts it hands things to

  /// The change log (persistence); `nil` keeps changes in memory only. It reports failures
  /// outside a commit to `policy`.
  public var changeLog: (any ChangeLog)? {
    get { commit.changeLog }
    set {
      commit.changeLog = newValue
      newValue?.failures = policy
    }
  }

  /// Runs the feedback hooks of saved changes.
  public var hooks: (any ChangeHooks)? {
    get { commit.hooks }
    set { commit.hooks = newValue }
  }

  /// Sees every published event of an exported channel (the LauncherEntry export).
  public var observer: (any EventObserver)? {
    get { commit.observer }
    set { commit.observer = newValue }
  }

  /// Carries out `RELOAD`.
  public var reloader: (any ConfigReloading)? {
    get { executor.reloader }
    set { executor.reloader = newValue }
  }

  // MARK: - Sources of changes

  /// The turn's instant (monotonic microseconds).
  public var now: UInt64 { turn.now }

  /// Carries out one request line of `client`, its reply appended to the client's output and
  /// the client queued to have it sent in this turn.
  @inline(__always)
  public func handleLine(_ line: UnsafeRawBufferPointer, from client: Client) {
    assert(turn.phase == .handling, "nothing is read while the turn ends")
    assert(!client.isReplying, "a request waits for the end of the reply under way")
    let before = client.output.count
    executor.handleLine(line, from: client, now: turn.now)
    if client.output.count != before { sendQueue.addReply(client) }  // an empty line has none
  }

  /// Applies `mutation` to `name` for no client (a bus bridge), on the path of every request's
  /// change, so persistence, the group commit and watchers cannot tell them apart.
  @discardableResult
  public func apply(_ mutation: Store.Mutation, to name: ChannelName) throws(ChangeRefusal) -> Store.Outcome {
    try executor.apply(mutation, to: name, by: nil, id: nil, now: turn.now).outcome
  }

  /// Appends the next chunk of `client`'s reply under way (`Peer.isReplying`), once its
  /// output has drained: in a turn, like a request, since the lines show the state of now.
  public func continueReply(_ client: Client) {
    assert(turn.phase == .handling, "no reply is produced while the turn ends")
    executor.continueReply(client, now: turn.now)
    sendQueue.addReply(client)
  }

  /// Starts or extends the channel's pulse window without changing its count (`Store.pulse`),
  /// and stages the new window's event. Returns the channel when the window moved.
  @discardableResult
  public func pulse(_ name: ChannelName) -> Channel? {
    guard let channel = store.pulse(name, now: turn.now) else { return nil }
    commit.stage(channel)
    return channel
  }

  /// Ends the pulse windows due now: their events are staged, and their `on_pulse_end` hooks
  /// asked for.
  public func expirePulses() {
    store.expirePulses(now: turn.now) { channel in
      commit.stage(channel)
      commit.hooks?.pulseEnded(channel)
    }
  }

  /// Ends a timed do-not-disturb when it is due: its event, then its channels' events, are
  /// staged. Like a pulse window's end it is derived from time: nothing is saved.
  public func expireDND() {
    var silenced: [Channel] = []
    if store.expireDND(now: turn.now, changed: { silenced.append($0) }) {
      commit.stageDND(silenced: silenced)
      logger.info("Do-not-disturb ended.")
    }
  }

  /// Puts a new config in force (a reload): every channel whose settings changed gets an
  /// event.
  public func reconfigure(_ config: DaemonConfig) {
    turn.begin()
    self.config = config
    store.reconfigure(config.channels) { channel in
      logger.debug("Settings of channel '\(channel.name)' changed.", [.channel(channel.name)])
      commit.stage(channel)
    }
    if let sources = executor.sources.client {
      ReplyEncoder.appendReloaded(to: &sources.output)
      sendQueue.add(sources)
    }
  }

  /// Logs a warning of `reason` at the turn's instant, unless one went out less than the
  /// interval ago; then it is only counted (`RepeatedWarnings`).
  public func warn(
    _ reason: RepeatedWarnings.Reason, _ message: @autoclosure () -> String,
    _ fields: @autoclosure () -> [Logger.Field] = []
  ) {
    warnings.log(.warning, reason, now: turn.now, message(), fields())
  }

  /// Reports the warnings counted and not yet reported whose interval has passed (the timer
  /// at `warnings.nextFlush`).
  public func flushWarnings() {
    warnings.flush(now: turn.now)
  }

  /// Tries to repair the change log after a failure (the repair timer, at `policy.nextRepair`).
  /// A repair compacts the state folder, which prunes history by the turn's day.
  public func tryRepair() {
    turn.begin()
    policy.tryRepair(commit.changeLog)
  }

  // MARK: - The end of the turn

  /// Ends the turn: saves its changes and publishes their events (or, when saving fails,
  /// undoes them and has `transport` close the clients that saw them first), then has
  /// `transport` send the output.
  public func endTurn<Transport: ClientTransport>(_ transport: Transport) where Transport.Client == Client {
    let undone = commit.save()
    for client in undone?.clients ?? [] { transport.close(client) }
    commit.publish(dropping: undone)
    turn.enter(.sending)
    transport.send(sendQueue)
    assert(sendQueue.isEmpty, "nothing stays queued past the end of its turn but what its send budget left")
    turn.ended()
  }

  /// Appends the events `client` is owed since it fell behind, now that its output drained
  /// (only while the turn's output is sent). Returns whether it appended any.
  @discardableResult
  public func appendMergedEvents(to client: Client) -> Bool {
    subscriptions.appendMergedEvents(to: client, from: store, now: turn.now)
  }

  /// `client` is gone: it watches nothing any more, is sent nothing more, and the rest of its
  /// reply is dropped.
  public func closed(_ client: Client) {
    subscriptions.stop(client)
    sendQueue.forget(client)
    client.reply = nil
    if commit.forwardTarget === client { commit.forwardTarget = nil }
    if executor.bridge.closed(client) { logger.info("The bridge (client \(client.id)) went away.") }
    if executor.sources.closed(client) { logger.info("The sources program (client \(client.id)) went away.") }
  }

  /// Whether the bridge or the sources program went away and their channels (mirrored, or
  /// claimed by a source) are not stale yet: the daemon then runs `bridgeWentAway` in a turn of
  /// its own (a connection may close while a turn ends).
  public var bridgeLeftMirrors: Bool { executor.bridge.wentAway || executor.sources.wentAway }

  /// The bridge went away: every mirrored channel is stale from now on, until a bridge says
  /// otherwise (`MIRROR`, `STALE`). The sources program went away: every claimed channel is
  /// stale, until a source claims it again.
  public func bridgeWentAway() {
    let seconds = Int(turn.wallMilliseconds() / 1000)
    if executor.bridge.wentAway, executor.bridge.client == nil,
      executor.setStale(true, since: seconds, ownedBy: nil, by: nil, now: turn.now)
    {
      executor.bridge.staleDone()
    }
    if executor.sources.wentAway, executor.sources.client == nil, commit.policy.refusal == nil {
      executor.markStale(true, source: nil, by: nil, now: turn.now)
      executor.sources.staleDone()
    }
  }

  /// The number of watchers, for status lines and the reader's line allowance.
  public var watcherCount: Int { subscriptions.count }
}
