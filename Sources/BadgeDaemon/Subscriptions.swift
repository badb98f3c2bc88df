import BadgeCore
import BadgeProtocol

/// Who watches what, and the fan-out of events to them: each event line is encoded once and
/// copied to every matching watcher, except a congested one, which gets the channel's latest
/// state once its output has drained (per-channel merging; see PROTOCOL.md, "Slow readers").
///
/// Pure: it appends to peers' output and calls `outputQueued` for each peer that got some;
/// sending is the outbox's job.
final class Subscriptions {
  /// Stop appending events to a watcher's output past this much unsent data; later changes
  /// are merged per channel and sent as the channel's latest state once it drains.
  static let eventHighWater = 256 << 10

  /// Watching peers, in the order they began watching.
  private(set) var watchers: [Peer] = []
  /// Called once for each peer whose output grew, until it is sent (`queuedForSend`).
  private let outputQueued: (Peer) -> Void
  /// One event line, encoded once per event and copied to every watcher.
  private var scratch: [UInt8] = []
  /// Whether a peer began watching in this turn (so `turnEnded` has something to reset).
  private var startedThisTurn = false

  init(outputQueued: @escaping (Peer) -> Void) {
    self.outputQueued = outputQueued
    scratch.reserveCapacity(256)
  }

  var isEmpty: Bool { watchers.isEmpty }
  var count: Int { watchers.count }

  /// `WATCH patterns`: begins watching, or widens what the peer watches. `stagedEvents` is
  /// the number of events waiting in this turn, which the peer's snapshot already shows.
  func start(_ peer: Peer, _ patterns: [ChannelPattern], stagedEvents: Int) {
    let wasWatching = peer.isWatching
    if !wasWatching {
      watchers.append(peer)
      peer.watchedFromEvent = stagedEvents
      startedThisTurn = startedThisTurn || stagedEvents > 0
    }
    if patterns.isEmpty || (wasWatching && peer.patterns!.isEmpty) {
      peer.patterns = []
    } else {
      var watched = peer.patterns ?? []
      for pattern in patterns where !watched.contains(pattern) { watched.append(pattern) }
      peer.patterns = watched
    }
  }

  /// How many patterns the peer would watch after `WATCH patterns` (`start`): a pattern it
  /// watches already does not count again, and watching every channel counts as none.
  static func patternCount(_ peer: Peer, adding patterns: [ChannelPattern]) -> Int {
    let current = peer.patterns ?? []
    if patterns.isEmpty || (peer.isWatching && current.isEmpty) { return 0 }
    return current.count + Set(patterns).subtracting(current).count
  }

  /// `UNWATCH`, or the peer is gone.
  func stop(_ peer: Peer) {
    guard peer.isWatching else { return }
    peer.patterns = nil
    peer.mergedChannels.removeAll()
    peer.mergedSet.removeAll()
    peer.mergedDND = false
    watchers.removeAll { $0 === peer }
  }

  /// Sends event number `index` of the turn (the channel's state after it) to every watcher of
  /// the channel that watched before it, merging for congested ones.
  func publish(_ channel: Channel, index: Int, now: UInt64) {
    guard !watchers.isEmpty else { return }
    scratch.removeAll(keepingCapacity: true)
    ReplyEncoder.appendState(channel, kind: .event, now: now, to: &scratch)
    for watcher in watchers where index >= watcher.watchedFromEvent && watcher.watches(channel.name) {
      if watcher.pendingOutput >= Subscriptions.eventHighWater || !watcher.mergedChannels.isEmpty {
        if watcher.mergedSet.insert(channel.name).inserted { watcher.mergedChannels.append(channel.name) }
      } else {
        watcher.output.append(contentsOf: scratch)
      }
      if !watcher.queuedForSend { outputQueued(watcher) }
    }
  }

  /// Sends do-not-disturb's state, event number `index` of the turn, to every watcher that
  /// watched before it, whatever it watches; a congested one gets the latest state once its
  /// output has drained.
  func publishDND(_ dnd: DoNotDisturb, index: Int, now: UInt64) {
    for watcher in watchers where index >= watcher.watchedFromEvent {
      if watcher.pendingOutput >= Subscriptions.eventHighWater || !watcher.mergedChannels.isEmpty {
        watcher.mergedDND = true
      } else {
        ReplyEncoder.appendDND(dnd, kind: .event, now: now, to: &watcher.output)
      }
      if !watcher.queuedForSend { outputQueued(watcher) }
    }
  }

  /// A new turn: every watcher gets the events staged from now on.
  func turnEnded() {
    guard startedThisTurn else { return }
    startedThisTurn = false
    for watcher in watchers { watcher.watchedFromEvent = 0 }
  }

  /// Appends the latest state of channels held back while the watcher was congested, until
  /// its output reaches the high-water mark again. Returns whether any were appended.
  @discardableResult
  func appendMergedEvents(to peer: Peer, from store: Store, now: UInt64) -> Bool {
    let dnd = peer.mergedDND
    if dnd {
      peer.mergedDND = false
      ReplyEncoder.appendDND(store.dnd, kind: .event, now: now, to: &peer.output)
    }
    var sent = 0
    while sent < peer.mergedChannels.count && peer.pendingOutput < Subscriptions.eventHighWater {
      let name = peer.mergedChannels[sent]
      peer.mergedSet.remove(name)
      ReplyEncoder.appendState(store.channel(named: name), kind: .event, now: now, to: &peer.output)
      sent += 1
    }
    peer.mergedChannels.removeFirst(sent)
    return dnd || sent > 0
  }
}
