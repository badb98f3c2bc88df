import BadgeCore
import BadgeProtocol

/// Who watches what, and the fan-out of events to them: each event line is encoded once and
/// copied to every matching watcher, except one that fell behind, which gets each channel's
/// latest state from the shared `EventBacklog` once its output has drained (per-channel
/// merging; see PROTOCOL.md, "Slow readers"). A watcher behind costs nothing per event.
///
/// Pure: it appends to peers' output and calls `outputQueued` for each peer that got some;
/// sending is the outbox's job.
final class Subscriptions {
  /// Stop appending events to a watcher's output past this much unsent data; later changes
  /// are merged per channel and sent as the channel's latest state once it drains. Small, as
  /// the socket's own buffer holds a few hundred KiB more before any output waits here: a
  /// thousand watchers behind hold about 16 MiB of output (an array grows to twice this). It
  /// was 32 KiB, which made 1,000 watchers of a burst peak at 62 MB of RSS (BENCHMARKS.md).
  static let eventHighWater = 8 << 10

  /// Watching peers, in the order they began watching.
  private(set) var watchers: [Peer] = []
  /// The watchers that watch by exact names only, under each name they watch: a run of one
  /// event visits its channel's list and `broadWatchers`, without matching any pattern.
  private var exactWatchers: [ChannelName: [Peer]] = [:]
  /// The watchers with a glob, or of every channel, in the order they came to be so.
  private var broadWatchers: [Peer] = []
  /// Called once for each peer whose output grew, until it is sent (`queuedForSend`).
  private let outputQueued: (Peer) -> Void
  /// A run of event lines, encoded once and copied to every watcher, and where each line ends.
  private var scratch: [UInt8] = []
  private var lineEnds: [Int] = []
  /// The run's channel names and event numbers, taken out of the events once: the loop over
  /// watchers reads these, and copies no `Channel` per watcher.
  private var names: [ChannelName] = []
  private var indices: [Int] = []
  /// The events watchers that fell behind have not been sent, one per channel.
  private(set) var backlog = EventBacklog()
  /// Whether a peer began watching in this turn (so `turnEnded` has something to reset).
  private var startedThisTurn = false

  init(outputQueued: @escaping (Peer) -> Void) {
    self.outputQueued = outputQueued
    scratch.reserveCapacity(4096)
    lineEnds.reserveCapacity(64)
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
    if wasWatching { unindex(peer) }
    if patterns.isEmpty || (wasWatching && peer.patterns!.isEmpty) {
      peer.patterns = []
    } else {
      var watched = peer.patterns ?? []
      for pattern in patterns where !watched.contains(pattern) { watched.append(pattern) }
      peer.patterns = watched
    }
    index(peer)
  }

  /// Files a watcher under each exact name it watches, or among `broadWatchers`.
  private func index(_ peer: Peer) {
    guard let patterns = peer.patterns else { return }
    if Subscriptions.isBroad(patterns) {
      broadWatchers.append(peer)
      return
    }
    for pattern in patterns { exactWatchers[pattern.exactName!, default: []].append(peer) }
  }

  /// Whether a watcher of `patterns` is matched rather than indexed: it watches every channel,
  /// or a glob.
  private static func isBroad(_ patterns: [ChannelPattern]) -> Bool {
    patterns.isEmpty || patterns.contains(where: \.isGlob)
  }

  /// Takes a watcher out of where `index` filed it (before its patterns change).
  private func unindex(_ peer: Peer) {
    guard let patterns = peer.patterns else { return }
    if Subscriptions.isBroad(patterns) {
      if let i = broadWatchers.firstIndex(where: { $0 === peer }) { broadWatchers.remove(at: i) }
      return
    }
    for pattern in patterns {
      let name = pattern.exactName!
      guard var list = exactWatchers.removeValue(forKey: name) else { continue }
      if let i = list.firstIndex(where: { $0 === peer }) { list.remove(at: i) }
      if !list.isEmpty { exactWatchers[name] = list }
    }
  }

  /// The watchers of `name`, exact or not, for tests: those a run of one event visits.
  func watchers(of name: ChannelName) -> [Peer] {
    (exactWatchers[name] ?? []) + broadWatchers.filter { $0.watches(name) }
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
    unindex(peer)
    peer.patterns = nil
    peer.mergedDND = false
    if let index = watchers.firstIndex(where: { $0 === peer }) { watchers.remove(at: index) }
    if peer.behindFrom != nil {
      peer.behindFrom = nil
      backlog.leave(oldestBehind: oldestBehind)
    }
  }

  /// The first missed event of the watcher furthest behind.
  private var oldestBehind: UInt64? {
    watchers.lazy.compactMap(\.behindFrom).min()
  }

  /// Sends a run of the turn's channel events (each with its number `index` in the turn, the
  /// channel's state after it) to every watcher of each channel that watched before it,
  /// merging for congested ones.
  ///
  /// The run is encoded once into one buffer, and a watcher that takes all of it (it watches
  /// every channel of the run, and stays under the high-water mark until the last line) gets it
  /// in one copy: with a thousand watchers, a turn's fan-out is a thousand copies, not a
  /// thousand per event. Any other watcher gets the run line by line, as it would one event
  /// at a time.
  func publish(_ events: [(index: Int, channel: Channel)], now: UInt64) {
    guard !watchers.isEmpty, !events.isEmpty else { return }
    // Event numbers are given in order by `backlog.record`, after the watchers are served: a
    // watcher that falls behind at one of them makes the backlog keep it and the later ones.
    let first = backlog.lastEvent + 1
    scratch.removeAll(keepingCapacity: true)
    lineEnds.removeAll(keepingCapacity: true)
    names.removeAll(keepingCapacity: true)
    indices.removeAll(keepingCapacity: true)
    for event in events {
      ReplyEncoder.appendState(event.channel, kind: .event, now: now, to: &scratch)
      lineEnds.append(scratch.count)
      names.append(event.channel.name)
      indices.append(event.index)
    }
    if events.count == 1 {
      publishOne(events[0].channel, first: first)
      _ = backlog.record(events[0].channel)
      return
    }
    let lastLineStart = lineEnds[events.count - 2]
    for watcher in watchers where watcher.behindFrom == nil {
      if watcher.watchedFromEvent <= indices[0],
        watcher.pendingOutput + lastLineStart < Subscriptions.eventHighWater,
        watchesAll(watcher)
      {
        watcher.output.append(contentsOf: scratch)
        if !watcher.queuedForSend { outputQueued(watcher) }
        continue
      }
      var matched = false
      for k in indices.indices where indices[k] >= watcher.watchedFromEvent && watcher.watches(names[k]) {
        matched = true
        if !append(line: k, of: events[k].channel, to: watcher, first: first) { break }
      }
      if matched && !watcher.queuedForSend { outputQueued(watcher) }
    }
    for event in events { _ = backlog.record(event.channel) }
  }

  /// A run of one event, of `channel` (in `scratch`, `names[0]`, `indices[0]`), numbered `first`: only its
  /// channel's exact watchers and the broad ones are visited, and only the broad ones matched.
  private func publishOne(_ channel: Channel, first: UInt64) {
    let name = names[0]
    let index = indices[0]
    if let exact = exactWatchers[name] {
      for watcher in exact { deliverOne(channel, to: watcher, index: index, first: first) }
    }
    for watcher in broadWatchers where watcher.watches(name) {
      deliverOne(channel, to: watcher, index: index, first: first)
    }
  }

  /// Gives the run's one event to a watcher of its channel, as the loop of `publish` would.
  @inline(__always)
  private func deliverOne(_ channel: Channel, to watcher: Peer, index: Int, first: UInt64) {
    guard watcher.behindFrom == nil, watcher.watchedFromEvent <= index else { return }
    append(line: 0, of: channel, to: watcher, first: first)
    if !watcher.queuedForSend { outputQueued(watcher) }
  }

  /// Appends line `k` of the run (the event of `channel`, numbered `first + k`) to a watcher's
  /// output, or, past the high-water mark, makes the watcher fall behind from that event on.
  /// Returns whether the watcher still follows event by event.
  @inline(__always) @discardableResult
  private func append(line k: Int, of channel: Channel, to watcher: Peer, first: UInt64) -> Bool {
    if watcher.pendingOutput >= Subscriptions.eventHighWater {
      watcher.behindFrom = first + UInt64(k)
      backlog.fallBehind(missing: first + UInt64(k), of: channel)
      return false
    }
    if lineEnds.count == 1 {
      watcher.output.append(contentsOf: scratch)  // the whole run: the array's own fast copy
    } else {
      watcher.output.append(contentsOf: scratch[(k == 0 ? 0 : lineEnds[k - 1])..<lineEnds[k]])
    }
    return true
  }

  /// Whether `watcher` watches every channel of the run in `names`.
  private func watchesAll(_ watcher: Peer) -> Bool {
    if watcher.patterns?.isEmpty == true { return true }
    for name in names where !watcher.watches(name) { return false }
    return true
  }

  /// Sends do-not-disturb's state, event number `index` of the turn, to every watcher that
  /// watched before it, whatever it watches; a congested one gets the latest state once its
  /// output has drained.
  func publishDND(_ dnd: DoNotDisturb, index: Int, now: UInt64) {
    for watcher in watchers where index >= watcher.watchedFromEvent {
      if watcher.pendingOutput >= Subscriptions.eventHighWater || watcher.behindFrom != nil {
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

  /// Appends, in event order, the latest state of each channel the watcher missed while it was
  /// behind, until its output reaches the high-water mark again; it is caught up once all are
  /// appended. Returns whether any were appended.
  @discardableResult
  func appendMergedEvents(to peer: Peer, from store: Store, now: UInt64) -> Bool {
    let dnd = peer.mergedDND
    if dnd {
      peer.mergedDND = false
      ReplyEncoder.appendDND(store.dnd, kind: .event, now: now, to: &peer.output)
    }
    guard let from = peer.behindFrom else { return dnd }
    let missed = backlog.entries(from: from, where: peer.watches)
    var appended = 0
    while appended < missed.count && peer.pendingOutput < Subscriptions.eventHighWater {
      ReplyEncoder.appendState(missed[appended].channel, kind: .event, now: now, to: &peer.output)
      appended += 1
    }
    if appended < missed.count {
      peer.behindFrom = missed[appended].event
    } else {
      peer.behindFrom = nil
      backlog.leave(oldestBehind: oldestBehind)
    }
    return dnd || appended > 0
  }
}
