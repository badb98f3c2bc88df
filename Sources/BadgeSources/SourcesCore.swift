import BadgeCore
import BadgeHooks
import BadgeLog
import BadgeProtocol

/// badged-sources' decisions, pure: it is told what the daemon said, what the file system
/// showed and when, and answers with `SourceAction`s in order; it reads no clock and touches
/// no file, so tests drive it event by event.
///
/// It only routes, as `MeshCore` does: each input goes to the source it names, each source
/// decides what to watch, list and rename and how its channels' items change
/// (`SourceTurn`); the core applies those changes to `SourceChannels`, which owns claims and
/// writes, and reports each source's state changes (`SourceHealth`) as one log line and a
/// status line to the daemon.
///
/// Every time it keeps and arms is boot time (`SourceTime.boottime`), writes' intervals too
/// (`WriteScheduler` needs only a clock that goes forward): a timer that came due during a
/// suspend fires on waking, which is also when the clock gap tells of the resume.
public final class SourcesCore {
  /// The config running: the one it started with, or the last reload accepted.
  public internal(set) var config: SourcesConfig
  var sources: [String: RunningSource] = [:]
  /// When each source wants `tick` next.
  var wakes: [String: UInt64] = [:]
  /// The sources that counted since the program started (or found nothing to count).
  var counted: Set<String> = []
  var health: [String: SourceHealth] = [:]
  /// Wall milliseconds of each source's last count change, and that count.
  var changed: [String: (count: Int, at: Int64)] = [:]
  var channels: SourceChannels
  var outbox: [SourceAction] = []
  var connected = false
  var armed: UInt64?
  var time: SourceTime
  /// Each source's watch tags, as its `.watch` and `.unwatch` actions left them, so that a
  /// reload that stops the source drops them.
  var watched: [String: Set<WatchTag>] = [:]
  /// The refusal of the last reload, while no later one was accepted (`SOURCES config`).
  var configError: String?
  /// The channels a restarted source's template made before, held until its first count
  /// (`settleLeftOvers`).
  var leftOver: [String: [ChannelName]] = [:]
  let home: [UInt8]
  /// The last `STATUS=` line asked for (`SourceHealth.summary`), which READY=1 repeats.
  public private(set) var serviceStatus: String?
  /// Whether a source's state changed since: `flush` sends a new status when its line differs.
  var statusDue = true
  /// Exec sources' interval runs, at most `config.maxRunning` at once, by the scheduler the
  /// daemon's hooks use.
  var runs: HookScheduler<ExecRun>
  /// The sources whose interval run a reload killed, until that run's end is told.
  var killedRuns: Set<String> = []

  /// A core for `config`; `home` makes `~/` paths absolute, `random` (from `getrandom`) makes
  /// the request ids unique across restarts.
  public init(config: SourcesConfig, home: [UInt8], random: UInt32, at time: SourceTime) {
    self.config = config
    self.time = time
    self.home = home
    runs = HookScheduler(of: ExecRun.self, intervalMs: 0, maxRunning: config.maxRunning)
    channels = SourceChannels(random: random)
    for spec in config.sources { add(spec) }
  }

  /// `spec`'s source, not started yet, and the channels it names outright.
  func add(_ spec: SourceSpec) {
    health[spec.name] = SourceHealth(source: spec.name)
    // A spec no kind takes claims nothing, so no channel is held that nothing writes.
    guard let source = RunningSource(spec, home: home) else { return }
    sources[spec.name] = source
    for name in spec.fixedChannels {
      if channels.ensure(name, for: spec) && connected { claim(name, of: spec) }
    }
  }

  /// The actions asked for since the last call, in order.
  public func takeActions() -> [SourceAction] {
    defer { outbox = [] }
    return outbox
  }

  /// Starts every source: each recounts.
  public func start() {
    recountAll()
    flush()
  }

  /// One input, at `time`.
  public func handle(_ input: SourceInput, at time: SourceTime) {
    self.time = time
    switch input {
    case .daemonConnected: daemonConnected()
    case .daemon(let answer): daemon(answer)
    case .daemonClosed: daemonClosed()
    case .fsEvents(let source, let events):
      if events.contains(where: { $0.kind == .overflow }) {
        outbox.append(.log(.notice, "Source \(source): missed changes (the inotify queue overflowed); recounting."))
      }
      turn(source) { source, turn in source.events(events, into: &turn) }
    case .listed(let source, let tag, let result):
      turn(source) { source, turn in source.listed(tag, result, into: &turn) }
    case .exec(let source, let result):
      if runEnded(source, result) { break }
      turn(source) { source, turn in source.exec(result, at: time, into: &turn) }
    case .notmuch(let source, let result):
      turn(source) { source, turn in source.notmuch(result, at: time, into: &turn) }
    case .imap(let source, let event):
      turn(source) { source, turn in source.imap(event, at: time, into: &turn) }
    case .reload(let result): reload(result)
    case .resumed(let cause):
      outbox.append(.log(.info, "Resumed (\(cause.rawValue)): recounting every source."))
      recountAll()
    case .tick:
      if let armed, armed <= time.boottime { self.armed = nil }
      for (name, due) in wakes.sorted(by: { $0.key < $1.key }) where due <= time.boottime {
        wakes[name] = nil
        turn(name) { source, turn in source.tick(at: time, into: &turn) }
      }
    }
    flush()
  }

  /// Every source recounts, in the config's order.
  func recountAll() {
    for spec in config.sources where sources[spec.name] != nil {
      turn(spec.name) { source, turn in source.recount(at: time, into: &turn) }
    }
  }

  /// Runs one source's decision and applies what it decided.
  func turn(_ name: String, _ decide: (inout RunningSource, inout SourceTurn) -> Void) {
    guard var source = sources[name], let spec = config.source(named: name) else { return }
    var turn = SourceTurn()
    decide(&source, &turn)
    sources[name] = source
    outbox += turn.actions.filter { action in
      guard case .spawn = action, isIntervalRun(name) else { return true }
      return runs.request(ExecRun(source: name), now: time.boottime) != nil
    }
    for action in turn.actions {
      if case .watch(_, let tag, _, _) = action { watched[name, default: []].insert(tag) }
      if case .unwatch(_, let tag) = action { watched[name]?.remove(tag) }
    }
    for (channel, change) in turn.changes {
      if channels.ensure(channel, for: spec) && connected { claim(channel, of: spec) }
      channels.apply(change, to: channel)
    }
    if let wake = turn.wake { wakes[name] = wake }
    // A set that disagrees with the source's own count missed a change: recount.
    if turn.expected.contains(where: { channels.count(of: $0.channel) != $0.count }) {
      self.turn(name) { source, turn in source.recount(at: time, into: &turn) }
    }
    noteCount(of: spec)
    if let state = turn.health { enter(state, spec) }
  }

  /// Marks the source's count change time when its count moved.
  private func noteCount(of spec: SourceSpec) {
    let count = channels.count(of: spec.name)
    guard changed[spec.name]?.count != count else { return }
    changed[spec.name] = (count, time.wallMs)
    if health[spec.name]?.state == .ok { sendStatus(spec) }
  }

  /// The source is now in `state`: its line, and its status to the daemon when it changed.
  /// A source that is not counting yet (starting, waiting) stays so while it recounts, so
  /// that its first count is logged as such.
  private func enter(_ state: SourceHealth.State, _ spec: SourceSpec) {
    let before = health[spec.name]?.state
    if state == .recounting, before?.isBeforeCounting == true { return }
    if let line = health[spec.name]?.enter(state) { outbox.append(.log(line.level, line.text)) }
    switch state {
    case .ok, .waiting: counted.insert(spec.name)
    default: break
    }
    if before != state {
      statusDue = true
      sendStatus(spec)
    }
  }

  /// `SOURCE <name> status …`, when connected.
  func sendStatus(_ spec: SourceSpec) {
    guard connected, let state = health[spec.name]?.state else { return }
    var retryAt: Int64?
    if case .retrying(let at, _) = state { retryAt = at }
    let status = SourceStatus(
      name: spec.name, kind: spec.kind.rawValue, state: SourceStatus.State(rawValue: state.word)!,
      channels: channels.names(of: spec.name).count, count: channels.count(of: spec.name),
      changed: changed[spec.name].map { Int($0.at) }, retryAt: retryAt.map(Int.init), error: state.reason ?? "")
    outbox.append(.request(SourcesDaemonRequest(.source(spec.name, .status(status)))))
  }

  /// The writes due, and the timer for the next write or source wakeup.
  func flush() {
    if statusDue {
      statusDue = false
      let line = SourceHealth.summary(config.sources.compactMap { health[$0.name]?.state })
      if line != serviceStatus {
        serviceStatus = line
        outbox.append(.status(line))
      }
    }
    startRuns()
    settleLeftOvers()
    var next = wakes.values.min()
    if connected {
      outbox += channels.releases().map { .request($0) }
      let (requests, write) = channels.due(now: time.boottime, counted: counted)
      outbox += requests.map { .request($0) }
      if let write { next = min(next ?? write, write) }
    }
    if let next, armed.map({ next < $0 }) ?? true {
      armed = next
      outbox.append(.armTimer(at: next))
    }
  }
}
