import BadgeCore
import BadgeProtocol

/// Who watches what, and the fan-out of events to them: each event's line, encoded once as it
/// was staged (`TurnEvents`), is copied to every matching watcher, except one that fell behind,
/// which gets each channel's latest state from the shared `EventBacklog` once its output has
/// drained (per-channel merging; see PROTOCOL.md, "Slow readers"). A watcher behind costs
/// nothing per event. An event's watchers are found through the `WatcherIndex`, at a cost
/// that does not grow with the patterns watched but for globs other than prefixes.
///
/// It appends to watchers' output and queues each watcher that got some (`SendQueue`);
/// sending is the daemon's.
final class Subscriptions<Client: Peer> {
  /// Stop appending events to a watcher's output past this much unsent data; later changes
  /// are merged per channel and sent as the channel's latest state once it drains. Small, as
  /// the socket's own buffer holds a few hundred KiB more before any output waits here, and
  /// every watcher behind holds up to about twice this (BENCHMARKS.md, the burst's memory).
  static var eventHighWater: Int { 8 << 10 }

  /// Watching clients, in the order they began watching.
  private(set) var watchers: [Client] = []
  /// The watchers filed by pattern: a change's watchers are found without trying every
  /// pattern of every watcher.
  private let index = WatcherIndex<Client>()
  let sendQueue: SendQueue<Client>
  private let turn: Turn
  /// Where each line of the run being published ends, from the run's start, and the run's
  /// channel names: the loop over watchers reads these, and copies no `Channel` per watcher.
  private var lineEnds: [Int] = []
  private var names: [ChannelName] = []
  /// Counts the runs of several events published, and the watchers the current one reached
  /// by their patterns (`publishRun`).
  private var runs: UInt64 = 0
  private var reached: [Client] = []
  /// The events watchers that fell behind have not been sent, one per channel.
  private(set) var backlog = EventBacklog()
  /// Whether a client began watching in this turn (so `turnEnded` has something to reset).
  private var startedThisTurn = false

  init(sendQueue: SendQueue<Client>, turn: Turn) {
    self.sendQueue = sendQueue
    self.turn = turn
    lineEnds.reserveCapacity(64)
  }

  var isEmpty: Bool { watchers.isEmpty }
  var count: Int { watchers.count }

  /// `WATCH patterns`: begins watching, or widens what the client watches. `stagedEvents` is
  /// the number of events waiting in this turn, which the client's snapshot already shows.
  func start(_ client: Client, _ patterns: ChannelPatternSet, stagedEvents: Int) {
    if var widened = client.patterns {
      if widened.isEmpty { return }  // every channel already
      if patterns.isEmpty {
        index.removeAll(client, widened)
        client.patterns = ChannelPatternSet()
        index.addEverything(client)
        return
      }
      client.patterns = nil  // so that `widened` is the only copy of its list
      widened.formUnion(patterns) { index.add(client, $0, ordinal: $1) }
      client.patterns = widened
      return
    }
    watchers.append(client)
    client.watchedFromEvent = stagedEvents
    startedThisTurn = startedThisTurn || stagedEvents > 0
    client.patterns = patterns.unindexed
    if patterns.isEmpty {
      index.addEverything(client)
    } else {
      for (ordinal, pattern) in patterns.patterns.enumerated() { index.add(client, pattern, ordinal: ordinal) }
    }
  }

  /// The watchers of `name`, for tests: those a run of one event visits.
  func watchers(of name: ChannelName) -> [Client] {
    var found: [Client] = []
    index.forEachWatcher(of: name) { found.append($0) }
    return found
  }

  /// How many patterns the client would watch after `WATCH patterns` (`start`): a pattern it
  /// watches already does not count again, and watching every channel counts as none.
  static func patternCount(_ client: Peer, adding patterns: ChannelPatternSet) -> Int {
    guard let current = client.patterns else { return patterns.count }
    if patterns.isEmpty || current.isEmpty { return 0 }
    return current.count(adding: patterns)
  }

  /// `UNWATCH`, or the client is gone.
  func stop(_ client: Client) {
    guard let patterns = client.patterns else { return }
    index.removeAll(client, patterns)
    client.patterns = nil
    client.mergedDND = false
    if let index = watchers.firstIndex(where: { $0 === client }) { watchers.remove(at: index) }
    if client.behindFrom != nil {
      client.behindFrom = nil
      backlog.leave { oldestBehind }
    }
  }

  /// Holds `client`'s events while a reply too long for one turn is produced for it: from the
  /// next event published on, it is behind, as a congested watcher is, and once the reply has
  /// ended it gets each changed channel's latest state (`appendMergedEvents`). So no event
  /// comes between the lines of such a reply, and none is lost.
  func hold(_ client: Client) {
    guard client.isWatching, client.behindFrom == nil else { return }
    client.behindFrom = backlog.lastEvent + 1
    backlog.hold()
  }

  /// The first missed event of the watcher furthest behind.
  private var oldestBehind: UInt64? {
    watchers.lazy.compactMap(\.behindFrom).min()
  }

  /// Sends a run of the turn's channel events, `events.events[run]` (each numbered by its place
  /// in the turn, the channel's state after it, its lines back to back), to every watcher of
  /// each channel that watched before it, merging for congested ones.
  ///
  /// A watcher that takes all of the run (it watches every channel of the run, and stays under
  /// the high-water mark until the last line) gets it in one copy: with a thousand watchers, a
  /// turn's fan-out is a thousand copies, not a thousand per event. Any other watcher gets the
  /// run line by line, as it would one event at a time.
  func publish(_ events: TurnEvents, run: Range<Int>) {
    assert(turn.phase == .publishing, "no event goes out before its commit")
    guard !watchers.isEmpty, !run.isEmpty else { return }
    // Event numbers are given in order by `backlog.record`, after the watchers are served: a
    // watcher that falls behind at one of them makes the backlog keep it and the later ones.
    let first = backlog.lastEvent + 1
    let start = events.events[run.lowerBound].lineStart
    names.removeAll(keepingCapacity: true)
    lineEnds.removeAll(keepingCapacity: true)
    for k in run {
      names.append(events.events[k].channel!.name)
      lineEnds.append(events.events[k].lineEnd - start)
    }
    events.lines.withUnsafeBufferPointer { all in
      let lines = UnsafeBufferPointer(rebasing: all[start..<(start + lineEnds[lineEnds.count - 1])])
      if run.count == 1 {
        publishOne(events, at: run.lowerBound, lines, first: first)
      } else {
        publishRun(events, run, lines, first: first)
      }
    }
    for k in run { _ = backlog.record(events.events[k].channel!) }
  }

  /// A run of several events. A watcher of every channel takes the whole run in one copy when
  /// it can; the others are found through the index, event by event: first to count how many
  /// of the run's events each watches (one that watches them all takes the whole run too),
  /// then, in event order, to give each of the rest its lines one by one.
  private func publishRun(_ events: TurnEvents, _ run: Range<Int>, _ lines: UnsafeBufferPointer<UInt8>, first: UInt64) {
    let lastLineStart = lineEnds[lineEnds.count - 2]
    runs &+= 1
    let stamp = runs
    func takesWhole(_ watcher: Client) -> Bool {
      watcher.behindFrom == nil && watcher.watchedFromEvent <= run.lowerBound
        && watcher.pendingOutput + lastLineStart < Self.eventHighWater
    }
    func giveWhole(_ watcher: Client) {
      watcher.runStamp = stamp
      watcher.runMatches = -1
      watcher.output.append(contentsOf: lines)
      sendQueue.add(watcher)
    }
    var everythingLeft = 0
    index.everything.forEach { watcher in
      if takesWhole(watcher) { giveWhole(watcher) } else { everythingLeft += 1 }
    }
    reached.removeAll(keepingCapacity: true)
    for name in names {
      index.forEachWatcher(of: name, everything: false) { watcher in
        if watcher.runStamp != stamp {
          watcher.runStamp = stamp
          watcher.runMatches = 0
          reached.append(watcher)
        }
        watcher.runMatches += 1
      }
    }
    for watcher in reached where watcher.runMatches == names.count && takesWhole(watcher) { giveWhole(watcher) }
    reached.removeAll(keepingCapacity: reached.capacity <= 4096)
    for k in names.indices {
      index.forEachWatcher(of: names[k], everything: everythingLeft > 0) { watcher in
        guard !(watcher.runStamp == stamp && watcher.runMatches < 0), watcher.behindFrom == nil,
          run.lowerBound + k >= watcher.watchedFromEvent
        else { return }
        append(line: k, lines, to: watcher, first: first, events, run)
        sendQueue.add(watcher)
      }
    }
  }

  /// A run of one event, number `index` of the turn: only its channel's watchers are visited,
  /// found through the index.
  private func publishOne(_ events: TurnEvents, at index: Int, _ line: UnsafeBufferPointer<UInt8>, first: UInt64) {
    self.index.forEachWatcher(of: names[0]) { watcher in
      deliverOne(line, to: watcher, index: index, first: first, events)
    }
  }

  /// Gives the run's one event to a watcher of its channel, as the loop of `publishRun` would.
  @inline(__always)
  private func deliverOne(
    _ line: UnsafeBufferPointer<UInt8>, to watcher: Client, index: Int, first: UInt64, _ events: TurnEvents
  ) {
    guard watcher.behindFrom == nil, watcher.watchedFromEvent <= index else { return }
    append(line: 0, line, to: watcher, first: first, events, index..<index + 1)
    sendQueue.add(watcher)
  }

  /// Appends line `k` of the run `events.events[run]` (whose lines are `lines`; the event
  /// numbered `first + k`) to a watcher's output, or, past the high-water mark, makes the
  /// watcher fall behind from that event on. Returns whether the watcher still follows event
  /// by event.
  @inline(__always) @discardableResult
  private func append(
    line k: Int, _ lines: UnsafeBufferPointer<UInt8>, to watcher: Client, first: UInt64, _ events: TurnEvents,
    _ run: Range<Int>
  ) -> Bool {
    if watcher.pendingOutput >= Self.eventHighWater {
      watcher.behindFrom = first + UInt64(k)
      backlog.fallBehind(missing: first + UInt64(k), of: events.events[run.lowerBound + k].channel!)
      return false
    }
    if lineEnds.count == 1 {
      watcher.output.append(contentsOf: lines)
    } else {
      watcher.output.append(
        contentsOf: UnsafeBufferPointer(rebasing: lines[(k == 0 ? 0 : lineEnds[k - 1])..<lineEnds[k]]))
    }
    return true
  }

  /// Sends do-not-disturb's event, number `index` of the turn, to every watcher that watched
  /// before it, whatever it watches; a congested one gets the latest state once its output
  /// has drained.
  func publishDND(_ events: TurnEvents, at index: Int) {
    assert(turn.phase == .publishing, "no event goes out before its commit")
    let event = events.events[index]
    for watcher in watchers where index >= watcher.watchedFromEvent {
      if watcher.pendingOutput >= Self.eventHighWater || watcher.behindFrom != nil {
        watcher.mergedDND = true
      } else {
        events.lines.withUnsafeBufferPointer {
          watcher.output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[event.lineStart..<event.lineEnd]))
        }
      }
      sendQueue.add(watcher)
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
  func appendMergedEvents(to client: Client, from store: Store, now: UInt64) -> Bool {
    assert(turn.phase == .sending, "merged events go out with the turn's output, after its commit")
    let dnd = client.mergedDND
    if dnd {
      client.mergedDND = false
      ReplyEncoder.appendDND(store.dnd, kind: .event, now: now, stamp: store.dndStamp, to: &client.output)
    }
    guard let from = client.behindFrom else { return dnd }
    let missed = backlog.entries(from: from, where: client.watches)
    var appended = 0
    while appended < missed.count && client.pendingOutput < Self.eventHighWater {
      ReplyEncoder.appendState(missed[appended].channel, kind: .event, now: now, to: &client.output)
      appended += 1
    }
    if appended < missed.count {
      client.behindFrom = missed[appended].event
    } else {
      client.behindFrom = nil
      backlog.leave { oldestBehind }
    }
    return dnd || appended > 0
  }
}
