import BadgeCore
import BadgeSystem

/// Records every change before its reply is sent: the seam where persistence plugs in.
protocol ChangeLog: AnyObject {
  /// Called for every change, in order, with the channel as it is after the change and its
  /// history entry of the day the change was counted on (`nil`: none).
  func record(_ channel: Channel, day: HistoryDay?)
  /// Called when a request turned do-not-disturb on or off (not for its end by time).
  func record(_ dnd: DoNotDisturb)
  /// Called once per loop turn, before anything of that turn is sent: saves the turn's records
  /// or throws, having saved none of them.
  func commit() throws(SystemError)
  /// Called after a failure, once a second until it succeeds: makes the log whole again.
  func repair() throws(SystemError)
  /// Set by the server: called when storage fails outside a commit (the deferred `everysec`
  /// flush, a compaction after the turn's records were saved).
  var failed: ((SystemError) -> Void)? { get set }
}

/// The turn's changes and what hangs on them: each change is recorded in the change log and
/// its event staged; at the end of the turn one commit saves them all (group commit), and only
/// then are the events published. A failed commit takes the turn back: the store undoes its
/// changes, their events are dropped, and the peers that made them or read them are closed
/// without replies; then `StorageFailurePolicy` takes over. Feedback hooks, observable too, are
/// asked for only once the changes behind them are saved.
final class GroupCommit {
  /// An event of the turn: a channel's state, or do-not-disturb's.
  enum Event {
    case channel(Channel)
    case doNotDisturb(DoNotDisturb)
  }

  var changeLog: ChangeLog?
  /// Runs the feedback hooks of saved count changes and of pulse windows' ends.
  var hooks: HookRunner?
  let store: Store
  let subscriptions: Subscriptions
  let policy: StorageFailurePolicy
  /// Peers that changed state this turn, or read it while it had unsaved changes.
  private var dependents: [Peer] = []
  /// Channel events waiting to be published together, with their numbers in the turn.
  private var run: [(index: Int, channel: Channel)] = []
  /// The events of this turn, in order: the channel's state after each change, pulse window
  /// end or reload, and do-not-disturb's changes.
  private var staged: [Event] = []
  /// This turn's count changes (the channel after, the count before), for the hooks.
  private var countChanges: [(channel: Channel, previous: Int)] = []
  /// Whether a request changed do-not-disturb this turn.
  private var dndChanged = false
  /// Sees every event of an exported channel (one whose settings give an `export`) once it is
  /// published, whether anyone watches or not: the LauncherEntry export announces them from
  /// here. Other channels' events are not staged for it, so without watchers a change stages
  /// nothing.
  var observer: ((Channel) -> Void)?

  init(store: Store, subscriptions: Subscriptions, policy: StorageFailurePolicy) {
    self.store = store
    self.subscriptions = subscriptions
    self.policy = policy
    store.keepsUndo = true
    dependents.reserveCapacity(64)
    staged.reserveCapacity(256)
  }

  /// The number of events staged this turn.
  var stagedEvents: Int { staged.count }

  /// Whether this turn changed something that is not saved yet.
  var hasUnsavedChanges: Bool { store.hasUndo }

  /// A change made by `peer`'s request, or by no peer (the bus bridges): recorded, and its
  /// event staged; a count change also asks for its hooks once saved, when the config has any.
  func changed(_ outcome: Store.Outcome, by peer: Peer?) {
    let channel = outcome.channel
    changeLog?.record(channel, day: outcome.day)
    if let peer { depend(peer) }
    stage(channel)
    if outcome.previousCount != channel.count, hooks?.hasHooks == true {
      countChanges.append((channel, outcome.previousCount))
    }
  }

  /// `peer`'s request turned do-not-disturb on or off: recorded, and its event staged, then
  /// the events of the channels it started or stopped silencing.
  func changedDND(by peer: Peer, silenced: [Channel]) {
    changeLog?.record(store.dnd)
    dndChanged = true
    depend(peer)
    stageDND(silenced: silenced)
  }

  /// Do-not-disturb's event (its end by time, or a change), then its channels' events.
  func stageDND(silenced: [Channel]) {
    if !subscriptions.isEmpty { staged.append(.doNotDisturb(store.dnd)) }
    for channel in silenced { stage(channel) }
  }

  /// `peer` was just told the state: if it shows unsaved changes, the peer's fate is the turn's.
  @inline(__always)
  func observed(by peer: Peer) {
    if store.hasUndo { depend(peer) }
  }

  /// An event that is not a change (a pulse window ended, a reload), sent after the commit.
  func stage(_ channel: Channel) {
    if !subscriptions.isEmpty || (observer != nil && channel.settings.export != nil) {
      staged.append(.channel(channel))
    }
  }

  private func depend(_ peer: Peer) {
    guard !peer.dependsOnTurn else { return }
    peer.dependsOnTurn = true
    dependents.append(peer)
  }

  /// Ends the turn: saves its changes, then publishes its events; or, when saving fails, undoes
  /// the changes, drops their events and calls `close` with each peer that depended on them.
  func commit(now: UInt64, close: (Peer) -> Void) {
    var failure: SystemError?
    if store.hasUndo, let changeLog {
      do {
        try changeLog.commit()
      } catch {
        failure = error
      }
    }
    // Channels whose changes were undone: their staged events are dropped.
    var undone = Set<ChannelName>()
    if let failure {
      let peers = dependents.count
      store.undoChanges { undone.insert($0) }
      for peer in dependents {
        peer.dependsOnTurn = false
        peer.discardOutput()
        close(peer)
      }
      policy.failed(failure, "undid the changes of this turn and closed the \(peers) connection(s) that saw them.")
    } else {
      store.forgetUndo()
      for peer in dependents { peer.dependsOnTurn = false }
    }
    dependents.removeAll(keepingCapacity: true)
    // Runs of channel events are published together (one copy per watcher and run);
    // do-not-disturb's events go between them in order.
    for (index, event) in staged.enumerated() {
      switch event {
      case .channel(let channel) where undone.isEmpty || !undone.contains(channel.name):
        run.append((index, channel))
        if channel.settings.export != nil { observer?(channel) }
      case .doNotDisturb(let dnd) where failure == nil || !dndChanged:
        publishRun(now: now)
        subscriptions.publishDND(dnd, index: index, now: now)
      default: break
      }
    }
    publishRun(now: now)
    staged.removeAll(keepingCapacity: staged.capacity <= 4096)
    dndChanged = false
    for change in countChanges where undone.isEmpty || !undone.contains(change.channel.name) {
      hooks?.countChanged(change.channel, from: change.previous)
    }
    countChanges.removeAll(keepingCapacity: countChanges.capacity <= 4096)
    subscriptions.turnEnded()
  }

  private func publishRun(now: UInt64) {
    guard !run.isEmpty else { return }
    subscriptions.publish(run, now: now)
    run.removeAll(keepingCapacity: run.capacity <= 4096)
  }
}
