import BadgeCore
import BadgeProtocol

/// The turn's changes and what hangs on them: each change is recorded in the change log and
/// its event staged; at the end of the turn one commit saves them all (group commit), and only
/// then are the events published: the end of the turn is two steps, `save` and `publish`. A
/// failed commit takes the turn back: the store undoes its changes, their events are dropped,
/// and the clients that made them or read them are closed without replies; then
/// `StorageFailurePolicy` takes over. Feedback hooks, observable too, are
/// asked for only once the changes behind them are saved.
final class GroupCommit<Client: Peer> {
  var changeLog: (any ChangeLog)?
  /// Runs the feedback hooks of saved count changes and of pulse windows' ends.
  var hooks: (any ChangeHooks)?
  /// Sees every event of an exported channel once it is published. Other channels' events are
  /// not staged for it, so without watchers a change stages nothing.
  weak var observer: (any EventObserver)?
  let store: Store
  let subscriptions: Subscriptions<Client>
  let policy: StorageFailurePolicy
  private let turn: Turn
  /// Clients that changed state this turn, or read it while it had unsaved changes.
  private var dependents: [Client] = []
  /// The events of this turn, in order, with their lines.
  private(set) var events = TurnEvents()
  /// The last changes, this turn's among them, which `WATCH since=<seq>` replays.
  private(set) var recent = RecentChanges()
  /// This turn's count changes (the channel after, the count before), for the hooks.
  private var countChanges: [(channel: Channel, previous: Int)] = []
  /// Whether a request changed do-not-disturb this turn.
  private var dndChanged = false
  /// The writes put in the forward outbox this turn: pushed to the bridge once saved.
  private var forwards: [ForwardEntry] = []
  /// The bridge's connection once it asked for the outbox (`FORWARDS`): it is pushed each
  /// write taken from then on.
  var forwardTarget: Client?

  init(store: Store, subscriptions: Subscriptions<Client>, policy: StorageFailurePolicy, turn: Turn) {
    self.store = store
    self.subscriptions = subscriptions
    self.policy = policy
    self.turn = turn
    store.keepsUndo = true
    dependents.reserveCapacity(64)
  }

  /// The number of events staged this turn.
  var stagedEvents: Int { events.count }

  /// Whether this turn changed something that is not saved yet.
  var hasUnsavedChanges: Bool { store.hasUndo }

  /// A change made by `client`'s request, or by no client (the bus bridges): recorded with the
  /// request's `id` (`nil`: none), and its event staged; a count change also asks for its hooks
  /// once saved, when the config has any. Returns where the event's line is, when it was
  /// encoded (someone watches), so that the reply can share it.
  @discardableResult
  func changed(_ outcome: Store.Outcome, by client: Client?, id: RequestID? = nil) -> Range<Int>? {
    let channel = outcome.channel
    changeLog?.record(channel, day: outcome.day, id: id, forward: outcome.forwarded)
    recent.record(channel)
    if let forwarded = outcome.forwarded { forwards.append(forwarded.entry) }
    if let client { depend(client) }
    if outcome.previousCount != channel.count, hooks?.hasHooks == true {
      countChanges.append((channel, outcome.previousCount))
    }
    return stage(channel)
  }

  /// A request id saved on its own (`Store.saveID`): recorded. Nothing is staged, since nothing
  /// shows it, but `client`'s reply waits for the commit like a change's.
  func saved(_ id: SavedRequestID, by client: Client) {
    changeLog?.record(id)
    depend(client)
  }

  /// `DELIVERED` took the write `id` out of the forward outbox: recorded; the bridge's reply
  /// waits for the commit.
  func delivered(_ id: String, by client: Client) {
    changeLog?.recordDelivered(id)
    depend(client)
  }

  /// `client`'s request turned do-not-disturb on or off: recorded with its id (`nil`: none),
  /// and its event staged, then the events of the channels it started or stopped silencing.
  /// Returns where the event's line is, when it was encoded.
  @discardableResult
  func changedDND(by client: Client, silenced: [Channel], id: SavedRequestID? = nil) -> Range<Int>? {
    changeLog?.record(store.dnd, id: id)
    dndChanged = true
    depend(client)
    return stageDND(silenced: silenced)
  }

  /// Do-not-disturb's event (its end by time, or a change), then its channels' events. Returns
  /// where do-not-disturb's line is, when it was staged (someone watches).
  @discardableResult
  func stageDND(silenced: [Channel]) -> Range<Int>? {
    assert(turn.phase == .handling, "no change once the turn's commit began")
    var line: Range<Int>?
    if !subscriptions.isEmpty { line = events.append(store.dnd, at: turn.now, stamp: store.dndStamp) }
    for channel in silenced { stage(channel) }
    return line
  }

  /// `client` was just told the state: if it shows unsaved changes, the client's fate is the
  /// turn's.
  @inline(__always)
  func observed(by client: Client) {
    if store.hasUndo { depend(client) }
  }

  /// A channel's event, published after the commit: encoded now when someone watches, kept
  /// without a line when only the observer wants it (an exported channel), left out otherwise.
  /// Returns where its line is, when it was encoded.
  @discardableResult
  func stage(_ channel: Channel) -> Range<Int>? {
    assert(turn.phase == .handling, "no change once the turn's commit began")
    if !subscriptions.isEmpty { return events.append(channel, encodedAt: turn.now) }
    if channel.settings.export != nil && observer != nil { _ = events.append(channel, encodedAt: nil) }
    return nil
  }

  private func depend(_ client: Client) {
    guard !client.dependsOnTurn else { return }
    client.dependsOnTurn = true
    dependents.append(client)
  }

  /// What a turn whose changes could not be saved took back: the channels whose changes the
  /// store undid (their staged events are dropped), whether do-not-disturb's change was among
  /// them, and the clients that made the changes or were shown them, whose output is dropped
  /// and which are to be closed before anything is published.
  struct Undone {
    var channels = Set<ChannelName>()
    var dnd = false
    var clients: [Client] = []
  }

  /// The end of the turn, first step: the change log saves the turn's changes in one commit
  /// (group commit). When that fails, the store undoes them and the storage failure policy takes
  /// over; the returned `Undone` says what was taken back and which clients lose their replies
  /// (their output dropped here; the caller closes them). Returns `nil` when all was saved.
  func save() -> Undone? {
    turn.enter(.committing)
    var failure: (any Error)?
    if store.hasUndo, let changeLog {
      do {
        try changeLog.commit()
      } catch {
        failure = error
      }
    }
    defer { dependents.removeAll(keepingCapacity: true) }
    guard let failure else {
      store.forgetUndo()
      for client in dependents { client.dependsOnTurn = false }
      return nil
    }
    var undone = Undone(dnd: dndChanged, clients: dependents)
    store.undoChanges { undone.channels.insert($0) }
    recent.forget(after: store.seq)
    for client in dependents {
      client.dependsOnTurn = false
      client.discardOutput()
    }
    policy.failed(
      failure, "undid the changes of this turn and closed the \(dependents.count) connection(s) that saw them.")
    return undone
  }

  /// The end of the turn, second step, once its changes are saved (or `undone`, and the clients
  /// that saw them closed): the forwarded writes go to the bridge, the events to watchers and the
  /// observer (but those of undone changes), and the hooks are asked for the saved count changes.
  func publish(dropping undone: Undone?) {
    turn.enter(.publishing)
    pushForwards(saved: undone == nil)
    publishEvents(dropping: undone?.channels ?? [], dndUndone: undone?.dnd ?? false)
    events.removeAll()
    dndChanged = false
    for change in countChanges where undone.map({ !$0.channels.contains(change.channel.name) }) ?? true {
      hooks?.countChanged(change.channel, from: change.previous)
    }
    countChanges.removeAll(keepingCapacity: countChanges.capacity <= 4096)
    subscriptions.turnEnded()
  }

  /// The bridge was just given the whole outbox (`FORWARDS`): this turn's writes are in it, so
  /// they are not pushed again.
  func forwardsListed() {
    forwards.removeAll(keepingCapacity: true)
  }

  /// Pushes the turn's forwarded writes to the bridge, once saved (a turn undone took them
  /// back out of the outbox).
  private func pushForwards(saved: Bool) {
    guard !forwards.isEmpty else { return }
    if saved, let target = forwardTarget {  // a closed bridge is no target
      for entry in forwards { ReplyEncoder.appendForward(entry, to: &target.output) }
      subscriptions.sendQueue.add(target)
    }
    forwards.removeAll(keepingCapacity: forwards.capacity <= 4096)
  }

  /// Publishes the turn's events, but those of `undone` channels (and do-not-disturb's, when
  /// its change was undone): each run of channel events that lie back to back goes out together
  /// (one copy per watcher and run), do-not-disturb's between them in order.
  private func publishEvents(dropping undone: Set<ChannelName>, dndUndone: Bool) {
    var runStart = 0
    for (index, event) in events.events.enumerated() {
      if let channel = event.channel {
        let kept = undone.isEmpty || !undone.contains(channel.name)
        if kept, channel.settings.export != nil { observer?.published(channel) }
        if kept && event.isEncoded { continue }  // the run goes on
      } else if !dndUndone {
        subscriptions.publish(events, run: runStart..<index)
        subscriptions.publishDND(events, at: index)
        runStart = index + 1
        continue
      }
      // An event that goes to no watcher ends the run before it.
      subscriptions.publish(events, run: runStart..<index)
      runStart = index + 1
    }
    subscriptions.publish(events, run: runStart..<events.count)
  }
}
