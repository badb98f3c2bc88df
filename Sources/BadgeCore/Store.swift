/// Every channel's state, and the only place that changes it.
///
/// The store is pure: the caller passes the monotonic time (`now`, in microseconds) with each
/// call, and gets back what changed, to persist and to push to watchers. A call that fails
/// changes nothing.
///
/// With `keepsUndo` on (the daemon), the store remembers how to undo every change since the
/// last `forgetUndo()`, so that changes the disk refused can be taken back (`undoChanges`).
public final class Store {
  /// A change a request asks for.
  public enum Mutation: Sendable, Equatable {
    case increment(Int)
    case decrement(Int)
    case set(Int)
    /// `SEEN`: every unread item is now seen (`unseen` goes to 0); the count stays.
    case seen
    case mute
    case unmute
    /// Settings made over the socket: `set` fields are put over the channel's override, then the
    /// `reset` keys are dropped from it so that the config's value applies again.
    case configure(set: SettingsOverride, reset: [SettingKey])
  }

  /// Why a mutation was refused.
  public enum MutationError: Error, Equatable, Sendable {
    /// The count would pass `Limits.maxCount`.
    case countOutOfRange(current: Int)
    /// The change would make a new channel while `[limits] max_channels` are kept already.
    case full(limit: Int)
  }

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
  }

  public private(set) var config: DaemonConfig
  /// The sequence number of the last change; it never goes backwards.
  public private(set) var seq: UInt64 = 0
  /// The channels with a count or a setting, in no particular order. A channel that reaches
  /// count 0 with no setting is forgotten (it reads as never written), so that the number kept
  /// follows what is in use and `max_channels` bounds it.
  public private(set) var channels: [Channel] = []
  private var index: [ChannelName: Int] = [:]
  private var pulses = PulseQueue()
  /// Do-not-disturb, daemon-wide.
  public private(set) var dnd = DoNotDisturb.off
  /// Arrivals, clears and peaks per channel and local day (`STATS`).
  public private(set) var history = History()
  /// The local day number (days since 1970-01-01 in local time) that changes are counted on.
  /// The daemon sets it from the wall clock before it applies requests; the store reads no
  /// clock.
  public var today = 0
  /// Whether changes are remembered until `forgetUndo()`, so `undoChanges` can take them back.
  public var keepsUndo = false
  /// Each touched channel as it was before a change (`nil`: it had never been written) and its
  /// history entry of the day the change was counted on, in change order: the one record of
  /// everything a change alters, so that undoing restores it.
  private var undo: [(name: ChannelName, before: Channel?, day: Int, history: History.EntryBefore)] = []
  /// `seq` before the first change in `undo`.
  private var seqBeforeUndo: UInt64 = 0
  /// Do-not-disturb before its first change since the last `forgetUndo()`, if it changed.
  private var dndBeforeUndo: DoNotDisturb?

  public init(config: DaemonConfig = DaemonConfig()) {
    self.config = config
    createConfiguredChannels()
  }

  /// The channel called `name`, or how it reads if it was never written (count 0, seq 0).
  public func channel(named name: ChannelName) -> Channel {
    if let i = index[name] { return channels[i] }
    return newChannel(name)
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

  /// Applies `mutation` to the channel called `name`.
  ///
  /// - Throws: `MutationError` when the mutation is refused; nothing changed then.
  @discardableResult
  public func apply(_ mutation: Mutation, to name: ChannelName, now: UInt64) throws(MutationError) -> Outcome {
    let position = index[name]
    let before = position.map { channels[$0] } ?? newChannel(name)
    var after = before
    switch mutation {
    case .increment(let n):
      guard n <= Limits.maxCount - before.count else {
        throw .countOutOfRange(current: before.count)
      }
      after.count = before.count + n
    case .decrement(let n):
      after.count = max(0, before.count - n)
    case .set(let n):
      guard n <= Limits.maxCount else { throw .countOutOfRange(current: before.count) }
      after.count = n
    case .seen:
      after.unseen = 0
    case .mute, .unmute:
      // Muting to what the config says anyway drops the override, so that UNMUTE after MUTE
      // leaves no setting behind and the channel follows the config again.
      let muted = mutation == .mute
      after.override.muted = muted == before.configured.muted ? nil : muted
    case .configure(let set, let reset):
      var override = after.override.merged(with: set)
      for key in reset { key.reset(in: &override) }
      after.override = override
    }
    // Only a settings change moves the settings in force; counting leaves them as they are.
    if after.override != before.override { after.settle() }
    Store.countUnseen(&after, before: before.count)
    guard after.count != before.count || after.unseen != before.unseen || after.override != before.override else {
      return Outcome(channel: before, changed: false, previousCount: before.count, day: nil)
    }
    if position == nil && after.isListed && channels.count >= config.limits.maxChannels {
      throw .full(limit: config.limits.maxChannels)
    }
    after.silenced = silencing(after.settings)
    updatePulse(&after, grew: after.count > before.count, now: now)
    let (historyBefore, day) = recordHistory(of: name, from: before.count, to: after.count)
    if keepsUndo {
      if undo.isEmpty { seqBeforeUndo = seq }
      undo.append((name, position == nil ? nil : before, today, historyBefore))
    }
    seq += 1
    after.seq = seq
    store(after, at: position)
    return Outcome(
      channel: after, changed: true, previousCount: before.count,
      day: day ?? history.entry(of: name, on: today))  // a settings change: the day unchanged
  }

  /// The unseen arithmetic, one rule for every request: a rise adds the arrivals, a fall
  /// lowers `unseen` to at most the new count (so `CLEAR` zeroes it), and `SEEN` has set it
  /// to 0 already.
  static func countUnseen(_ channel: inout Channel, before: Int) {
    if channel.count > before {
      channel.unseen += channel.count - before
    } else {
      channel.unseen = min(channel.unseen, channel.count)
    }
  }

  /// Sets every channel with a count to 0 (`CLEAR *`), calling `changed` for each in name order.
  public func clearAll(now: UInt64, changed: (Outcome) -> Void) {
    for channel in listed where channel.count > 0 {
      // A decrement to 0 cannot be refused.
      if let outcome = try? apply(.set(0), to: channel.name, now: now), outcome.changed {
        changed(outcome)
      }
    }
  }

  /// Marks every channel's items seen (`SEEN *`), calling `changed` for each channel that had
  /// unseen items, in name order.
  public func seeAll(now: UInt64, changed: (Outcome) -> Void) {
    for channel in listed where channel.unseen > 0 {
      if let outcome = try? apply(.seen, to: channel.name, now: now), outcome.changed {
        changed(outcome)
      }
    }
  }

  /// Starts the channel's pulse window, or extends it, without changing its count: `PULSE`,
  /// and what an app's `urgent` flag asks for; the one mechanism for any pulse that is not an
  /// increase. The window lasts `ms`, or the channel's `pulse_ms` without it. It follows the
  /// rules of an increase: a muted or silenced channel, a channel at 0 and `pulse_ms = 0` (when
  /// `ms` is not given) do not pulse, and a window never ends earlier than it would have. Like a
  /// window's end it is not a change: `seq` stays and nothing needs persisting.
  ///
  /// - Returns: the channel when its window started or moved later (to push to watchers).
  @discardableResult
  public func pulse(_ name: ChannelName, for ms: Int? = nil, now: UInt64) -> Channel? {
    guard let position = index[name] else { return nil }  // never written: count 0
    var channel = channels[position]
    let until = pulseDeadline(channel, ms: ms, now: now)
    guard until > channel.pulseUntil else { return nil }
    channel.pulseUntil = until
    pulses.schedule(until, for: name)
    channels[position] = channel
    return channel
  }

  /// Whether changes were made since the last `forgetUndo()` (with `keepsUndo` on).
  public var hasUndo: Bool { !undo.isEmpty || dndBeforeUndo != nil }

  /// The changes so far are saved: they will never be undone.
  public func forgetUndo() {
    undo.removeAll(keepingCapacity: undo.capacity <= 4096)
    dndBeforeUndo = nil
  }

  /// Takes back every change since the last `forgetUndo()`, newest first, so each touched
  /// channel, its day of history and `seq` are as they were before; calls `undone` with each
  /// touched channel's name (once per change, so a name may come more than once). Settings
  /// from the config stay those in force now (a reload in between is not undone), and a
  /// restored pulse window ends on time.
  public func undoChanges(_ undone: (ChannelName) -> Void = { _ in }) {
    for (name, before, day, historyBefore) in undo.reversed() {
      history.putBack(historyBefore, of: name, on: day)
      // The change may have forgotten the channel (cleared to 0), or made it (`before` is
      // nil): `store` puts back, or forgets, whatever it was.
      var channel = before ?? newChannel(name)
      applyConfig(to: &channel)
      if channel.pulseUntil > 0 {
        pulses.schedule(channel.pulseUntil, for: name)
      } else {
        pulses.remove(name)
      }
      store(channel, at: index[name])
      undone(name)
    }
    if !undo.isEmpty { seq = seqBeforeUndo }
    undo.removeAll(keepingCapacity: undo.capacity <= 4096)
    if let before = dndBeforeUndo {
      dndBeforeUndo = nil
      dnd = before
    }
    // Do-not-disturb as it is now (back, or unchanged) decides how every channel shows.
    for i in channels.indices {
      let silenced = silencing(channels[i].settings)
      if silenced != channels[i].silenced {
        channels[i].silenced = silenced
        if silenced != nil { endPulse(&channels[i]) }
        undone(channels[i].name)
      }
    }
  }

  /// When the next pulse window ends, if any channel pulses.
  public var nextPulseDeadline: UInt64? {
    pulses.earliest
  }

  /// Ends the pulse windows due at `now`, calling `ended` with each such channel. Ending a
  /// window is not a change: `seq` stays.
  public func expirePulses(now: UInt64, ended: (Channel) -> Void) {
    while let due = pulses.popDue(at: now) {
      guard let i = index[due.channel] else { continue }
      channels[i].pulseUntil = 0
      ended(channels[i])
    }
  }

  // MARK: - Do not disturb

  /// Turns do-not-disturb on (`until` 0: until turned off) or off, calling `changed` with every
  /// channel it starts or stops silencing. A silenced channel's pulse window ends. Counts and
  /// `seq` stay: a channel's own state did not change, only how it shows.
  ///
  /// - Returns: whether the state changed (on to off, off to on, or a new end).
  @discardableResult
  public func setDND(_ state: DoNotDisturb, changed: (Channel) -> Void = { _ in }) -> Bool {
    guard state != dnd else { return false }
    if keepsUndo && dndBeforeUndo == nil { dndBeforeUndo = dnd }
    dnd = state
    for i in channels.indices {
      let silenced = silencing(channels[i].settings)
      guard silenced != channels[i].silenced else { continue }
      channels[i].silenced = silenced
      if silenced != nil { endPulse(&channels[i]) }
      changed(channels[i])
    }
    return true
  }

  /// When a timed do-not-disturb ends, if one runs.
  public var nextDNDDeadline: UInt64? {
    dnd.isOn && dnd.until > 0 ? dnd.until : nil
  }

  /// Ends a timed do-not-disturb due at `now`, calling `changed` as `setDND` does.
  ///
  /// - Returns: whether it ended.
  @discardableResult
  public func expireDND(now: UInt64, changed: (Channel) -> Void = { _ in }) -> Bool {
    guard let deadline = nextDNDDeadline, deadline <= now else { return false }
    // Derived from time like a pulse window's end: not a change, nothing to undo.
    let undoable = keepsUndo
    keepsUndo = false
    defer { keepsUndo = undoable }
    return setDND(.off, changed: changed)
  }

  /// Puts a new config in force (a reload), calling `changed` with every channel whose settings
  /// changed and every channel a new `[channel NAME]` section brings into `LIST`. Counts,
  /// overrides and `seq` stay; a channel whose section went away is forgotten when it has no
  /// count and no setting left. A lower `max_channels` refuses new channels and keeps the
  /// ones there are.
  public func reconfigure(_ newConfig: DaemonConfig, changed: (Channel) -> Void) {
    config = newConfig
    var i = 0
    while i < channels.count {
      let before = channels[i].settings
      let wasSilenced = channels[i].silenced
      applyConfig(to: &channels[i])
      if channels[i].settings != before || channels[i].silenced != wasSilenced { changed(channels[i]) }
      if channels[i].isListed { i += 1 } else { forget(at: i) }
    }
    createConfiguredChannels(created: changed)
  }

  /// Puts a channel back as it was persisted (recovery); `seq` moves up to the channel's.
  /// `unseen` is kept within 0 … count; without it every item is unseen.
  public func restore(
    name: ChannelName, count: Int, unseen: Int? = nil, override: SettingsOverride, seq channelSeq: UInt64
  ) {
    var channel = channel(named: name)
    channel.count = min(max(0, count), Limits.maxCount)
    channel.unseen = min(max(0, unseen ?? channel.count), channel.count)
    channel.override = override
    channel.seq = channelSeq
    endPulse(&channel)
    channel.settle()
    channel.silenced = silencing(channel.settings)
    store(channel, at: index[name])
    seq = max(seq, channelSeq)
  }

  /// Puts back one day of a channel's history as it was persisted (recovery).
  public func restoreHistory(of name: ChannelName, _ entry: HistoryDay) {
    history.restore(name, entry)
  }

  /// Drops history older than `History.keptDays` before `today` (compaction).
  public func pruneHistory() {
    history.prune(today: today)
  }

  /// Moves the sequence number up to at least `value` (recovery: changes of channels that no
  /// longer exist still used their numbers).
  public func restoreSeq(atLeast value: UInt64) {
    seq = max(seq, value)
  }

  // MARK: - Internals

  /// The one place a change reaches history: whatever undoes a change of the store must undo
  /// this too.
  private func recordHistory(
    of name: ChannelName, from before: Int, to after: Int
  ) -> (before: History.EntryBefore, after: HistoryDay?) {
    history.record(name, from: before, to: after, on: today)
  }

  private func newChannel(_ name: ChannelName) -> Channel {
    let (settings, matched) = config.settings(for: name)
    var channel = Channel(name: name, configured: settings, hasConfigSection: matched)
    channel.silenced = silencing(settings)
    return channel
  }

  /// Puts the config's settings for the channel in force; a muted or silenced channel stops
  /// pulsing.
  private func applyConfig(to channel: inout Channel) {
    let (configured, matched) = config.settings(for: channel.name)
    channel.configured = configured
    channel.hasConfigSection = matched
    channel.settle()
    channel.silenced = silencing(channel.settings)
    if channel.settings.muted || channel.silenced != nil { endPulse(&channel) }
  }

  /// Keeps `channel` at `position` (a new one at the end), or forgets it when it has neither a
  /// count nor a setting.
  private func store(_ channel: Channel, at position: Int?) {
    if let position {
      channels[position] = channel
      if !channel.isListed { forget(at: position) }
    } else if channel.isListed {
      index[channel.name] = channels.count
      channels.append(channel)
    }
  }

  /// Drops the channel at `i`: the last one takes its place, so forgetting is O(1).
  private func forget(at i: Int) {
    let name = channels[i].name
    pulses.remove(name)
    index[name] = nil
    let last = channels.removeLast()
    if i < channels.count {
      channels[i] = last
      index[last.name] = i
    }
  }

  /// Channels named by an exact `[channel NAME]` section exist (and are listed) from the start.
  private func createConfiguredChannels(created: (Channel) -> Void = { _ in }) {
    for section in config.sections {
      if let name = section.pattern.exactName, index[name] == nil {
        let channel = newChannel(name)
        store(channel, at: nil)
        created(channel)
      }
    }
  }

  /// Every increase restarts the window; reaching 0, being muted or silenced ends it. With
  /// `pulse_ms` at 0 the restarted window is empty, so an increase ends a window begun under a
  /// longer one.
  private func updatePulse(_ channel: inout Channel, grew: Bool, now: UInt64) {
    if grew {
      let until = pulseDeadline(channel, ms: nil, now: now)
      if until > 0 {
        channel.pulseUntil = until
        pulses.schedule(until, for: channel.name)
      } else {
        endPulse(&channel)
      }
    } else if channel.count == 0 || channel.settings.muted || channel.silenced != nil {
      endPulse(&channel)
    }
  }

  private func endPulse(_ channel: inout Channel) {
    if channel.pulseUntil != 0 { pulses.remove(channel.name) }
    channel.pulseUntil = 0
  }

  /// The number of pulse windows queued: one per pulsing channel, whatever the rate of
  /// increases (for tests of that bound).
  var queuedPulseCount: Int { pulses.count }

  /// When a window started at `now` ends: `ms` (or `pulse_ms`) later, or 0 (no window) for a
  /// channel at 0, a muted or silenced one, or an empty window.
  private func pulseDeadline(_ channel: Channel, ms: Int?, now: UInt64) -> UInt64 {
    let length = ms ?? channel.settings.pulseMs
    guard channel.count > 0, !channel.settings.muted, channel.silenced == nil, length > 0 else { return 0 }
    return now + UInt64(length) * 1000
  }

  /// How do-not-disturb shows a channel with `settings` now; `nil` when it does not silence it.
  private func silencing(_ settings: ChannelSettings) -> DNDBadges? {
    dnd.isOn && settings.dnd == .obey ? config.dndBadges : nil
  }
}
