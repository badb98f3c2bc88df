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
/// a time, changes during a run coalesced into one more run after it, and at most one start per
/// channel in each `interval`. Pure: the caller passes the monotonic time (microseconds), starts
/// the runs it is given, reports when each ends, and arms one timer at `nextDeadline`.
public struct HookScheduler: Sendable {
  /// The least time between two starts for one channel, in microseconds.
  public var interval: UInt64
  private var running: Set<HookKey> = []
  /// Runs waiting: for their key's run to end, or for their channel's interval to pass.
  private var pending: [HookKey: HookRun] = [:]
  /// When each channel last started a hook (kept while it still limits the next start).
  private var lastStart: [ChannelName: UInt64] = [:]

  public init(intervalMs: Int) {
    interval = UInt64(intervalMs) * 1000
  }

  /// Whether a run of `key` is under way.
  public func isRunning(_ key: HookKey) -> Bool { running.contains(key) }

  /// How many runs wait.
  public var pendingCount: Int { pending.count }

  /// A change asks for `run`. Returns it when it may start now (the caller starts it);
  /// otherwise it waits, merged into any run already waiting for its key.
  public mutating func request(_ run: HookRun, now: UInt64) -> HookRun? {
    let key = run.key
    if var waiting = pending[key] {
      waiting.count = run.count
      waiting.label = run.label
      pending[key] = waiting
      return nil
    }
    guard !running.contains(key), mayStart(run.channel, now: now) else {
      pending[key] = run
      return nil
    }
    start(key, now: now)
    return run
  }

  /// The run of `key` ended (exited, failed to start, or was killed).
  public mutating func finished(_ key: HookKey) {
    running.remove(key)
  }

  /// The runs that may start at `now`, removed from the waiting ones and marked running; the
  /// caller starts them. At most one per channel.
  public mutating func due(now: UInt64) -> [HookRun] {
    var started: [HookRun] = []
    for key in pending.keys.sorted(by: HookScheduler.order) where !running.contains(key) {
      guard mayStart(key.channel, now: now), let run = pending.removeValue(forKey: key) else { continue }
      start(key, now: now)
      started.append(run)
    }
    lastStart = lastStart.filter { now < $0.value + interval }
    return started
  }

  /// When the next waiting run may start, for a run that waits only for its channel's interval;
  /// `nil` when none does (runs waiting for a running one start when it ends, see `due`).
  public var nextDeadline: UInt64? {
    var earliest: UInt64?
    for key in pending.keys where !running.contains(key) {
      let at = (lastStart[key.channel] ?? 0) + interval
      earliest = min(earliest ?? at, at)
    }
    return earliest
  }

  /// Forgets every waiting run (a reload changed the hooks, or do-not-disturb began).
  public mutating func dropPending() {
    pending.removeAll()
  }

  private func mayStart(_ channel: ChannelName, now: UInt64) -> Bool {
    guard let last = lastStart[channel] else { return true }
    return now >= last + interval
  }

  private mutating func start(_ key: HookKey, now: UInt64) {
    running.insert(key)
    lastStart[key.channel] = now
  }

  /// A fixed order for the waiting runs: by channel, then event.
  private static func order(_ a: HookKey, _ b: HookKey) -> Bool {
    a.channel != b.channel ? a.channel < b.channel : a.event.rawValue < b.event.rawValue
  }
}
