import BadgeHooks

/// One interval run of an exec source's command, as `HookScheduler` starts it: at most one per
/// source at a time (the source itself runs once more after a run rather than twice), no
/// interval between starts (`interval_s` is the source's own), at most `hooks_max_running`.
struct ExecRun: ScheduledRun {
  var source: String
  var key: String { source }
  static func group(of key: String) -> String { key }
  /// A run asked for while one waits is that one.
  mutating func merge(_ later: ExecRun) {}
}

/// Exec sources' interval runs through the daemon's hook limits: a `.spawn` a source decided
/// on waits while `[daemon] hooks_max_running` runs are under way. A followed command runs for
/// as long as the program does, so it takes no place among them.
extension SourcesCore {
  /// Whether `name` is an exec source whose command runs at an interval.
  func isIntervalRun(_ name: String) -> Bool {
    guard case .exec(let settings) = config.source(named: name)?.settings else { return false }
    return settings.schedule != .follow
  }

  /// An interval run of `source` ended: its place is free. Returns whether the run was one a
  /// reload killed, whose output is no one's (the source restarted has a run of its own, which
  /// waited for this one's place).
  func runEnded(_ source: String, _ result: ExecResult) -> Bool {
    switch result {
    case .ran, .failedToStart: break
    case .printed, .exited: return false
    }
    guard runs.isRunning(source) else { return false }
    runs.finished(source)
    return killedRuns.remove(source) != nil
  }

  /// The waiting runs that may start now. A run of a source a reload stopped, or changed into
  /// one that runs no command at an interval, is dropped.
  func startRuns() {
    runs.maxRunning = config.maxRunning
    var freed = true
    while freed {
      freed = false
      for run in runs.due(now: time.boottime) {
        if case .exec(let source) = sources[run.source], source.running, isIntervalRun(run.source) {
          outbox.append(.spawn(source: run.source))
        } else {
          runs.finished(run.key)
          freed = true
        }
      }
    }
  }
}
