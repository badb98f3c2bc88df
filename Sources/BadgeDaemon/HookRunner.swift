import BadgeConfig
import BadgeCore
import BadgeHooks
import BadgeLog
import BadgeServer
import BadgeSystem
import Glibc

/// Runs the feedback hooks (`on_increase`, …) of channel changes without ever blocking the loop:
/// `HookScheduler` decides when a run may start (one per channel and event at a time, changes
/// during a run coalesced into one more, one start per `hook_interval_ms` per channel, at most
/// `hooks_max_running` at once); this starts them with `posix_spawn`, their output going to a
/// `HookOutput` of their own, reaps them through sd-event child sources, and kills a run that
/// outlives `hook_timeout_ms`. A hook that cannot start, fails or is killed is logged through
/// the daemon's `RepeatedWarnings`: once, then with a count every 10 s while it keeps failing.
final class HookRunner: ChangeHooks {
  private let loop: EventLoop
  private let logger: Logger
  private let warnings: RepeatedWarnings
  private let output: HookOutput
  private var config: DaemonConfig
  private var scheduler: HookScheduler<HookRun>
  /// The runs under way, by key.
  private var running: [HookKey: Running] = [:]
  /// Wakes the loop when a waiting run's interval has passed.
  private var timer: TimerSource?

  private struct Running {
    let pid: pid_t
    let command: HookCommand
    let child: ChildSource
    let timeout: TimerSource
    let relay: HookOutputRelay?
    var timedOut = false
  }

  init(loop: EventLoop, config: DaemonConfig, logger: Logger, warnings: RepeatedWarnings) throws(SystemError) {
    self.loop = loop
    self.config = config
    self.logger = logger
    self.warnings = warnings
    output = HookOutput(loop: loop, logger: logger)
    hasHooks = config.hasHooks
    scheduler = HookScheduler(intervalMs: config.hookIntervalMs, maxRunning: config.hooksMaxRunning)
    timer = try loop.addTimer(accuracy: 1000) { [unowned self] in startDue() }
  }

  /// How many hook runs are under way.
  var runningCount: Int { running.count }
  /// Whether the config gives any channel a hook (`DaemonConfig.hasHooks`), kept from the last
  /// load so that a change asks it without looking at the sections.
  private(set) var hasHooks: Bool

  /// A new config: new hooks and limits. Waiting runs are dropped (their hook may be gone);
  /// runs under way finish, and no new one starts while as many as the new
  /// `hooks_max_running` are under way.
  func reconfigure(_ newConfig: DaemonConfig) {
    config = newConfig
    hasHooks = newConfig.hasHooks
    scheduler.interval = UInt64(newConfig.hookIntervalMs) * 1000
    scheduler.maxRunning = newConfig.hooksMaxRunning
    scheduler.dropPending()
    armTimer()
  }

  /// A request changed `channel`'s count from `previous`: runs the hooks of the events that is.
  func countChanged(_ channel: Channel, from previous: Int) {
    for event in HookEvent.events(from: previous, to: channel.count) {
      request(event, channel, previous: previous)
    }
  }

  /// `channel`'s pulse window ended by time.
  func pulseEnded(_ channel: Channel) {
    request(.pulseEnd, channel, previous: channel.count)
  }

  // MARK: - Runs

  private func request(_ event: HookEvent, _ channel: Channel, previous: Int) {
    // Silenced by do-not-disturb, or muted without hooks_when_muted: no feedback at all.
    guard channel.silenced == nil, !channel.settings.muted || config.hooksWhenMuted else { return }
    guard config.hooks(for: channel.name).command(for: event) != nil else { return }
    let run = HookRun(
      channel: channel.name, event: event, count: channel.count, previous: previous, label: channel.label)
    if let started = scheduler.request(run, now: loop.now), !start(started) {
      startDue()
    } else {
      armTimer()
    }
  }

  /// Starts the runs the scheduler lets through now; a run that fails to start frees its
  /// place at once, for the next one.
  private func startDue() {
    var runs = scheduler.due(now: loop.now)
    while !runs.isEmpty {
      let failed = runs.filter { !start($0) }
      runs = failed.isEmpty ? [] : scheduler.due(now: loop.now)
    }
    armTimer()
  }

  /// Starts a run the scheduler let through; it counts as running until its child is reaped.
  /// Returns whether it started.
  private func start(_ run: HookRun) -> Bool {
    let key = run.key
    guard let command = config.hooks(for: run.channel).command(for: run.event) else {
      scheduler.finished(key)
      return false
    }
    let environment = HookRunner.environment(for: run)
    var relay: HookOutputRelay?
    do {
      let opened = try output.open(for: run)
      relay = opened.relay
      defer { opened.child.close() }
      let pid = try ChildProcess.spawn(
        command.words, environment: environment, output: .descriptor(opened.child), ownProcessGroup: true)
      relay?.pid = pid
      let child = try loop.addChild(pid) { [unowned self] ending in ended(key, ending) }
      let timeout = try loop.addTimer(at: loop.now + UInt64(config.hookTimeoutMs) * 1000, accuracy: 10_000) {
        [unowned self] in timedOut(key)
      }
      running[key] = Running(pid: pid, command: command, child: child, timeout: timeout, relay: relay)
      logger.debug("Started hook \(run.event.key) of '\(run.channel)' (pid \(pid)).", [.channel(run.channel)])
      return true
    } catch {
      relay?.finish()
      scheduler.finished(key)
      report(command, "\(error)", run)
      return false
    }
  }

  private func timedOut(_ key: HookKey) {
    guard let run = running[key] else { return }
    running[key]?.timedOut = true
    ChildProcess.signalGroup(run.pid, SIGKILL)
  }

  private func ended(_ key: HookKey, _ ending: ChildProcess.Ending) {
    guard let run = running.removeValue(forKey: key) else { return }
    run.timeout.cancel()
    run.child.cancel()
    run.relay?.finish()
    scheduler.finished(key)
    let context = HookRun(channel: key.channel, event: key.event, count: 0, previous: 0, label: "")
    switch ending {
    case .exited(0): break
    case .exited(let status): report(run.command, "it exited with status \(status)", context)
    case .killed where run.timedOut:
      report(run.command, "it was killed after running \(config.hookTimeoutMs) ms (hook_timeout_ms)", context)
    case .killed(let signal): report(run.command, "it was killed by signal \(signal)", context)
    }
    startDue()
  }

  /// Logs a hook's failure: at once the first time, then at most one line per command line
  /// every `RepeatedWarnings.defaultInterval`, with the count of those in between.
  private func report(_ command: HookCommand, _ reason: String, _ run: HookRun) {
    warnings.log(
      .warning, RepeatedWarnings.Reason("Hook '\(command.line)' failed"), now: loop.now,
      "Hook \(run.event.key) of '\(run.channel)' ('\(command.line)') failed: \(reason).", [.channel(run.channel)])
  }

  private func armTimer() {
    timer?.arm(at: scheduler.nextDeadline)
  }

  /// The daemon's environment with the run's `BADGED_*` variables put over it.
  static func environment(for run: HookRun) -> [String] {
    let own: [(String, String)] = [
      ("BADGED_CHANNEL", run.channel.description), ("BADGED_COUNT", String(run.count)),
      ("BADGED_PREVIOUS", String(run.previous)), ("BADGED_DELTA", String(run.delta)),
      ("BADGED_LABEL", run.label), ("BADGED_EVENT", run.event.rawValue),
    ]
    let names = Set(own.map { $0.0 + "=" })
    let inherited = ChildProcess.currentEnvironment.filter { entry in
      guard let eq = entry.firstIndex(of: "=") else { return true }
      return !names.contains(String(entry[...eq]))
    }
    return inherited + own.map { $0.0 + "=" + $0.1 }
  }
}
