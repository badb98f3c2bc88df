/// Every channel's state, and the only place that changes it.
///
/// The store is pure: the caller passes the monotonic time (`now`, in microseconds) with each
/// call, and gets back what changed, to persist and to push to watchers. A call that fails
/// changes nothing.
///
/// With `keepsUndo` on (the daemon), the store remembers how to undo every change since the
/// last `forgetUndo()`, so that changes the disk refused can be taken back (`undoChanges`).
///
/// This file holds the state, the lookups and `apply`, and keeps the channels' slots; the rest
/// is by subject beside it: the name index (ChannelIndex), a mutation's arithmetic
/// (Mutation.swift), request ids (Store+RequestIDs, RequestIDTable), pulse windows
/// (Store+Pulses), history read by name (Store+History), do-not-disturb (Store+DoNotDisturb),
/// taking back unsaved changes (UndoLog, Store+Undo), a new config (Store+Reload), and what
/// persistence puts back (Store+Recovery).
///
/// A channel's place in `channels` is its slot. What is kept by slot (the index, the pulse
/// queue, history) changes only where slots do: `store` adds one at the end, `forget(at:)`
/// moves the last channel into the freed slot.
public final class Store {
  /// What `apply` did.
  public struct Outcome {
    /// The channel after the call (before it, too, when nothing changed).
    public let channel: Channel
    /// Whether anything changed; only then did `seq` move, and only then is there anything to
    /// persist or push.
    public let changed: Bool
    /// The count before the call.
    public let previousCount: Int
    /// The channel's history entry of `today` as the change left it (`nil` when it has none):
    /// what persistence writes beside the channel, handed over so it is not looked up again.
    public let day: HistoryDay?
    /// The write to forward to the channel's owner, when the channel is mirrored: saved with
    /// the change, in the forward outbox. Boxed, so that the outcome of a local channel's change
    /// carries one empty reference.
    public var forwarded: Forwarded? = nil

    /// The write to forward, if any.
    public var forward: ForwardEntry? { forwarded?.entry }
  }

  /// What the store takes from the daemon's config (BadgeConfig's `DaemonConfig.channels`).
  public internal(set) var config: ChannelConfig
  /// The sequence number of the last change; it never goes backwards.
  public internal(set) var seq: UInt64 = 0
  /// The channels with a count or a setting, in no particular order. A channel that reaches
  /// count 0 with no setting is forgotten (it reads as never written), so that the number kept
  /// follows what is in use and `max_channels` bounds it.
  public internal(set) var channels: [Channel] = []
  /// The largest running total of any channel forgotten here: a channel made anew starts its
  /// total at it, so that a clear up to a total a reader saw of an earlier channel of the same
  /// name (`CLEAR <channel> upto=<total>`, late from another machine or a script) clears none
  /// of the items that arrived after it was forgotten. It never falls (but when a change is
  /// taken back), and the snapshot keeps it.
  public internal(set) var totalFloor = 0
  /// Where each channel is in `channels` (its slot), by name; names are compared through the
  /// table (`slot(of:)`).
  var index = ChannelIndex()
  /// How many of `channels` each pool holds: each pool's limit bounds its own count
  /// (`ChannelConfig.channelLimit(of:)`).
  public internal(set) var pooled = ChannelPool.Counts()
  /// One entry per pulsing channel, by its slot in `channels`, for the earliest end.
  var pulses = SlotPulseQueue()
  /// Do-not-disturb, daemon-wide.
  public internal(set) var dnd = DoNotDisturb.off
  /// Where and when do-not-disturb last changed, when known: the newest change wins between
  /// machines (`DND … from= at=`).
  public internal(set) var dndStamp: DNDStamp?
  /// Arrivals, clears and peaks per channel and local day (`STATS`), kept by slot for the
  /// channels in `channels` (read by name through `history`).
  var dayHistory = History()
  /// The local day number (days since 1970-01-01 in local time) that changes are counted on.
  /// The daemon sets it from the wall clock before it applies requests; the store reads no
  /// clock.
  public var today = 0
  /// The ids of the requests saved last (`id=<token>`), to answer a retry without carrying
  /// it out again.
  public internal(set) var requestIDs: RequestIDTable
  /// How to take back the changes since the last `forgetUndo()` (with `keepsUndo` on).
  var undo = UndoLog()
  /// The writes to mirrored channels waiting for their owners (`FORWARDS`, `DELIVERED`).
  public internal(set) var outbox = ForwardOutbox()

  /// - Parameter requestIDCapacity: how many request ids are kept before the oldest is
  ///   forgotten (the daemon keeps `RequestIDTable.defaultCapacity`; tests make it small).
  public init(config: ChannelConfig = ChannelConfig(), requestIDCapacity: Int = RequestIDTable.defaultCapacity) {
    self.config = config
    requestIDs = RequestIDTable(capacity: requestIDCapacity)
    createConfiguredChannels()
  }

  /// The channel called `name`, or how it reads if it was never written (count 0, seq 0).
  public func channel(named name: ChannelName) -> Channel {
    if let i = slot(of: name) { return channels[i] }
    return newChannel(name)
  }

  /// Where the channel called `name` is in `channels`, if it is kept.
  @inline(__always)
  func slot(of name: ChannelName) -> Int? {
    index.slot(hash: name.hashValue) { channels[$0].name == name }
  }

  /// The channels `LIST` shows (a count or a setting), sorted by name.
  public var listed: [Channel] {
    channels.filter(\.isListed).sorted { $0.name < $1.name }
  }

  /// The channels announced to docks: those whose settings (config section or `CONFIGURE`)
  /// give an `export`, sorted by name. A section naming a channel creates it, so every
  /// exported channel is here.
  public var exported: [Channel] {
    channels.filter { $0.settings.export != nil }.sorted { $0.name < $1.name }
  }

  /// Applies `mutation` to the channel called `name`: its arithmetic (`Mutation.apply`),
  /// then what the store keeps beside the channel: the limit on its pool's channels,
  /// do-not-disturb, the pulse window, history, how to undo it, and `seq`. (A request's id is
  /// saved after it, by `saveID(ofChange:)` or `saveID(_:)`.)
  ///
  /// - Throws: `MutationError` when the mutation is refused; nothing changed then.
  @discardableResult
  public func apply(_ mutation: Mutation, to name: ChannelName, now: UInt64) throws(MutationError) -> Outcome {
    let position = slot(of: name)
    let before = position.map { channels[$0] } ?? newChannel(name)
    // A mirrored channel's writes are forwarded to its owner, and the owner's state may only
    // be put into a channel that is not local: the rules of mirrors (Store+Mirrors). A local
    // channel's write, nearly every change, passes none of them.
    let local = !before.isMirrored && mutation.isWrite
    let forward = local ? nil : try forwardedWrite(mutation, before, at: position)
    var after = before
    guard try mutation.apply(to: &after) else {
      return Outcome(channel: before, changed: false, previousCount: before.count, day: nil)
    }
    if position == nil && after.isListed {
      let pool = ChannelPool(of: after)
      let limit = config.channelLimit(of: pool)
      if pooled[pool] >= limit.value { throw .full(limit) }
    }
    after.silenced = silencing(after.settings)
    // The owner's state pulses as the owner says (`MIRROR … pulse=`), not as an increase here.
    // A source's report pulses for its arrivals, which may come with no rise of the count.
    updatePulse(&after, grew: (after.count > before.count || after.total > before.total) && mutation.isWrite, now: now)
    // A mirrored channel's history is kept by its owner.
    let historyPlace = History.Place(slot: position, name: name)
    let (historyBefore, day) =
      local ? recordHistory(at: historyPlace, from: before, to: after) : (.unchanged, nil)
    // A settings change leaves the day as it was; read here, before `store` may move slots.
    let dayOfChange = local ? day ?? dayHistory.entry(at: historyPlace, on: today) : nil
    undo.changed(name, before: position == nil ? nil : before, day: today, history: historyBefore, seq: seq)
    seq += 1
    after.seq = seq
    if !local && before.isMirrored && !after.isMirrored {
      // Forgotten as a mirror (`MIRROR … forget`): it reads as a channel made anew here, its
      // total at the floor, which a total from another machine never raises.
      after.total = totalFloor
    }
    var entry: ForwardEntry?
    if let forward {
      entry = takeForward(forward, of: &after)
    }
    store(after, at: position)
    guard local else {
      return Outcome(
        channel: after, changed: true, previousCount: before.count, day: nil, forwarded: entry.map(Forwarded.init))
    }
    return Outcome(channel: after, changed: true, previousCount: before.count, day: dayOfChange)
  }

  /// Applies `write`, a clear or a sight of every item, to every channel it changes (`CLEAR *`,
  /// `SEEN *`), calling `changed` for each, in name order. A channel the store refuses it for (a
  /// mirrored one while the forward outbox is full) is left as it is.
  public func writeAll(_ write: ChannelWrite, now: UInt64, changed: (Outcome) -> Void) {
    // A channel without items has nothing to clear or see.
    for channel in listed where channel.count > 0 {
      if let outcome = try? apply(.write(write), to: channel.name, now: now), outcome.changed {
        changed(outcome)
      }
    }
  }

  // MARK: - Keeping channels

  /// The one place a change reaches history: whatever undoes a change of the store must undo
  /// this too.
  /// Its arrivals are what the write added to the running total (a local write raises it by
  /// exactly its arrivals).
  private func recordHistory(
    at place: History.Place, from before: Channel, to after: Channel
  ) -> (before: History.EntryBefore, after: HistoryDay?) {
    dayHistory.record(
      at: place, from: before.count, to: after.count, arrivals: max(0, after.total &- before.total), on: today)
  }

  /// How the channel called `name` reads before it is written: the config's settings,
  /// do-not-disturb as it is, and its running total at `totalFloor`.
  func newChannel(_ name: ChannelName) -> Channel {
    let (settings, matched) = config.settings(for: name)
    var channel = Channel(name: name, configured: settings, hasConfigSection: matched)
    channel.silenced = silencing(settings)
    channel.total = totalFloor
    return channel
  }

  /// Keeps `channel` at `position` (a new one at the end), or forgets it when it has neither a
  /// count nor a setting (one never kept, as recovery puts back the last record of a channel
  /// that was forgotten, leaves its total in `totalFloor` all the same). The pulse queue
  /// follows the channel's `pulseUntil` (`queuePulse`), and a new channel takes the days of
  /// history kept under its name. A kept channel that stops or starts being mirrored moves
  /// from one pool's count to the other's.
  func store(_ channel: Channel, at position: Int?) {
    if let position {
      let before = channels[position]
      channels[position] = channel
      if before.isMirrored != channel.isMirrored {
        pooled[ChannelPool(of: before)] -= 1
        pooled[ChannelPool(of: channel)] += 1
      }
      if !channel.isListed {
        forget(at: position)
      } else if channel.pulseUntil != before.pulseUntil {
        queuePulse(at: position)
      }
    } else if channel.isListed {
      let slot = channels.count
      if slot == channels.capacity { channels.reserveCapacity(Store.grownCapacity(slot)) }
      channels.append(channel)
      index.insert(slot, hash: channel.name.hashValue)
      dayHistory.adopt(channel.name, at: slot)
      pooled[ChannelPool(of: channel)] += 1
      if channel.pulseUntil != 0 { queuePulse(at: slot) }
    } else {
      raiseTotalFloor(past: channel.total)
    }
  }

  /// The table's room once `count` slots are full: half as much again, where an array's own
  /// growth doubles it (16,384 slots for 10,000 channels), so that at most a third of it lies
  /// unused.
  static func grownCapacity(_ count: Int) -> Int {
    max(16, count + count / 2)
  }

  /// Drops the channel at `i`: the last one takes its place, so forgetting is O(1). What is kept
  /// by slot (the index, the pulse queue, history) moves with it; the forgotten channel's days
  /// stay, under its name. Its total stays in `totalFloor`.
  func forget(at i: Int) {
    let name = channels[i].name
    raiseTotalFloor(past: channels[i].total)
    pulses.remove(i)
    index.remove(i, hash: name.hashValue)
    dayHistory.release(name, at: i)
    pooled[ChannelPool(of: channels[i])] -= 1
    let last = channels.removeLast()
    let lastSlot = channels.count
    if i < lastSlot {
      channels[i] = last
      index.move(lastSlot, to: i, hash: last.name.hashValue)
      pulses.rekey(lastSlot, to: i)
    }
  }

  /// Raises `totalFloor` to a forgotten channel's `total`, remembering how to take it back.
  private func raiseTotalFloor(past total: Int) {
    guard total > totalFloor else { return }
    undo.totalFloorRaising(from: totalFloor)
    totalFloor = total
  }
}
