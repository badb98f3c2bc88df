import BadgeCore

/// One run of a hook: what it is told through its environment (`BADGED_*`).
public struct HookRun: Equatable, Sendable {
  public var channel: ChannelName
  public var event: HookEvent
  /// The count now.
  public var count: Int
  /// The count before the changes this run reports: before the first of them when several
  /// were coalesced into one run.
  public var previous: Int
  /// The label now.
  public var label: String

  public init(channel: ChannelName, event: HookEvent, count: Int, previous: Int, label: String) {
    self.channel = channel
    self.event = event
    self.count = count
    self.previous = previous
    self.label = label
  }

  /// `count - previous`: positive for a rise.
  public var delta: Int { count - previous }

  /// The run's key: at most one runs per channel and event.
  public var key: HookKey { HookKey(channel: channel, event: event) }
}

extension HookRun: ScheduledRun {
  /// A channel's hooks share its `hook_interval_ms`.
  public static func group(of key: HookKey) -> ChannelName { key.channel }

  /// The latest count and label; the previous count stays the first one's.
  public mutating func merge(_ later: HookRun) {
    count = later.count
    label = later.label
  }
}

/// A run a `HookScheduler` starts: at most one at a time per `key`, and starts of one `group`
/// spaced by the scheduler's interval.
public protocol ScheduledRun: Sendable {
  associatedtype Key: Hashable, Sendable
  associatedtype Group: Hashable, Sendable
  var key: Key { get }
  /// The group whose starts the interval spaces (a hook's channel).
  static func group(of key: Key) -> Group
  /// A later request of the same key while this one waits: this one carries it.
  mutating func merge(_ later: Self)
}

/// A channel and an event: hooks run at most once at a time per key.
public struct HookKey: Hashable, Sendable {
  public var channel: ChannelName
  public var event: HookEvent

  public init(channel: ChannelName, event: HookEvent) {
    self.channel = channel
    self.event = event
  }
}

/// When hooks may start, so that they never pile up: at most one run per channel and event at
/// a time, changes during a run coalesced into one more run after it, at most one start per
/// channel in each `interval`, and at most `maxRunning` runs at once in all. Generic over the
/// run (its key and the group its interval spaces), so that other commands the daemon's
/// settings limit (an exec source's runs) share this code; the daemon's hooks are
/// `HookScheduler<HookRun>`. Pure: the caller
/// passes the monotonic time (microseconds), starts the runs it is given, reports when each
/// ends, calls `due` then (and when the timer fires), and arms one timer at `nextDeadline`.
///
/// A run that cannot start yet waits, one per key: a later change of its key merges into it
/// (the latest count, the first previous count) and keeps its place. Runs free to start but
/// for `maxRunning` start in the order they became free to start (their key's run ended, their
/// channel's interval passed, or they came when nothing held them), oldest first, so a
/// channel that keeps changing never gets ahead of one that waits longer.
public struct HookScheduler<Run: ScheduledRun>: Sendable {
  public typealias Key = Run.Key
  public typealias Group = Run.Group

  /// The least time between two starts for one channel, in microseconds.
  public var interval: UInt64
  /// The most runs under way at once (`[daemon] hooks_max_running`).
  public var maxRunning: Int
  private var running: Set<Key> = []
  /// Every waiting run, by key.
  private var pending: [Key: Run] = [:]
  /// The waiting runs free to start but for `maxRunning`, oldest first, from `readyStart`.
  private var ready: [Key] = []
  private var readyStart = 0
  /// The waiting runs whose channel's interval has not passed, by channel; each such channel
  /// has its interval's end in `intervalEnds`.
  private var waitingForInterval: [Group: [Key]] = [:]
  private var intervalEnds = PulseQueue<[Group: Int]>()
  /// Waiting runs whose key's run ended: `due`, which knows the time, places them.
  private var unblocked: [Key] = []
  /// When each channel last started a hook (kept while it still limits the next start).
  private var lastStart: [Group: UInt64] = [:]
  /// `lastStart`'s size at which it is next cleared of starts that no longer limit anything.
  private var pruneAt = minimumPrune

  /// A scheduler of `Run`s; the daemon's hooks' one is `HookScheduler(intervalMs:maxRunning:)`.
  public init(of run: Run.Type, intervalMs: Int, maxRunning: Int) {
    interval = UInt64(intervalMs) * 1000
    self.maxRunning = maxRunning
  }

  /// Whether a run of `key` is under way.
  public func isRunning(_ key: Key) -> Bool { running.contains(key) }

  /// How many runs are under way.
  public var runningCount: Int { running.count }

  /// How many runs wait.
  public var pendingCount: Int { pending.count }

  /// A change asks for `run`. Returns it when it may start now (the caller starts it);
  /// otherwise it waits, merged into any run already waiting for its key.
  public mutating func request(_ run: Run, now: UInt64) -> Run? {
    let key = run.key
    if pending[key] != nil {
      pending[key]!.merge(run)
      return nil
    }
    if !running.contains(key), mayStart(key, now: now), running.count < maxRunning,
      readyStart == ready.count
    {
      start(key, now: now)
      return run
    }
    pending[key] = run
    // A key under way is placed when its run ends (`finished`, then `due`).
    if !running.contains(key) { place(key, now: now) }
    return nil
  }

  /// The run of `key` ended (exited, failed to start, or was killed). Call `due` next: a place
  /// is free.
  public mutating func finished(_ key: Key) {
    running.remove(key)
    if pending[key] != nil { unblocked.append(key) }
  }

  /// The runs that may start at `now`, oldest first, as many as `maxRunning` leaves room for;
  /// removed from the waiting ones and marked running. The caller starts them.
  public mutating func due(now: UInt64) -> [Run] {
    while let (_, channel) = intervalEnds.popDue(at: now) {
      ready += waitingForInterval.removeValue(forKey: channel) ?? []
    }
    for key in unblocked { place(key, now: now) }
    unblocked.removeAll(keepingCapacity: true)
    var started: [Run] = []
    while running.count < maxRunning, readyStart < ready.count {
      let key = ready[readyStart]
      readyStart += 1
      guard mayStart(key, now: now) else {
        place(key, now: now)  // another event of its channel started since it became ready
        continue
      }
      started.append(pending.removeValue(forKey: key)!)
      start(key, now: now)
    }
    compactReady()
    pruneStarts(now: now)
    return started
  }

  /// When the next waiting run's channel interval ends, for the timer; `nil` when no run waits
  /// for one (runs waiting for a place or for their key's run start when one ends, see `due`).
  public var nextDeadline: UInt64? { intervalEnds.earliest }

  /// Forgets every waiting run (a reload changed the hooks).
  public mutating func dropPending() {
    pending.removeAll()
    ready.removeAll()
    readyStart = 0
    waitingForInterval.removeAll()
    intervalEnds.removeAll()
    unblocked.removeAll()
  }

  private func mayStart(_ key: Key, now: UInt64) -> Bool {
    guard let last = lastStart[Run.group(of: key)] else { return true }
    return now >= last + interval
  }

  /// Puts a waiting run that nothing else holds where it waits: behind its channel's interval,
  /// or at the end of the ready ones.
  private mutating func place(_ key: Key, now: UInt64) {
    guard !mayStart(key, now: now) else {
      ready.append(key)
      return
    }
    let group = Run.group(of: key)
    if waitingForInterval[group, default: []].isEmpty {
      intervalEnds.schedule(lastStart[group]! + interval, for: group)
    }
    waitingForInterval[group, default: []].append(key)
  }

  private mutating func start(_ key: Key, now: UInt64) {
    running.insert(key)
    lastStart[Run.group(of: key)] = now
  }

  /// Drops the ready runs already started from the front of `ready`, once they are half of it.
  private mutating func compactReady() {
    if readyStart == ready.count {
      ready.removeAll(keepingCapacity: ready.capacity <= minimumPrune)
      readyStart = 0
    } else if readyStart >= minimumPrune, readyStart * 2 >= ready.count {
      ready.removeFirst(readyStart)
      readyStart = 0
    }
  }

  /// Forgets the starts that no longer limit a channel, when `lastStart` has doubled since the
  /// last time: each start costs that once, however many channels start.
  private mutating func pruneStarts(now: UInt64) {
    guard lastStart.count >= pruneAt else { return }
    lastStart = lastStart.filter { now < $0.value + interval }
    pruneAt = max(minimumPrune, 2 * lastStart.count)
  }

}

/// `lastStart`'s least size at which it is cleared of starts that no longer limit anything
/// (a generic type has no static stored property).
private let minimumPrune = 64

extension HookScheduler where Run == HookRun {
  /// The daemon's hooks' scheduler.
  public init(intervalMs: Int, maxRunning: Int) {
    self.init(of: HookRun.self, intervalMs: intervalMs, maxRunning: maxRunning)
  }
}
