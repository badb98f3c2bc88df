import BadgeConfig
import BadgeSources
import BadgeSystem

/// The work the runtime hands to others: `exec` sources' commands, and notmuch sources' jobs.
extension SourcesRuntime {
  /// Starts `source`'s command: an interval run, whose output is handed on when it ends, or
  /// the followed command, whose lines are handed on as they come and whose exit is told.
  func spawn(_ source: String) {
    guard let spec = core.config.source(named: source), case .exec(let settings) = spec.settings else { return }
    let follows = settings.schedule == .follow
    var channel = ""
    if case .fixed(let name) = spec.channel { channel = name.description }
    do {
      runs[source] = try ExecRunner(
        loop: loop, command: settings.command.words,
        environment: ExecRunner.environment(source: source, channel: channel),
        // One byte over what a run may print tells the core it printed too much.
        mode: follows ? .follow() : .once(maxBytes: CountLine.maxRunOutput + 1),
        timeoutMs: follows ? nil : timeoutMs(settings),
        onLine: { [unowned self] line in feed(.exec(source: source, .printed(line + [0x0A]))) },
        onError: { [unowned self] level, line in logger.log(level, "Source '\(source)': \(line)") },
        onFinish: { [unowned self] finished in finish(source, finished, follows: follows) })
    } catch {
      // The source's state says it, once: not a line per attempt.
      feed(.exec(source: source, .failedToStart("\(error)")))
    }
  }

  /// How long an interval run may take: `timeout_s`, else `[daemon] hook_timeout_ms` of the
  /// same file.
  private func timeoutMs(_ settings: ExecSettings) -> UInt64 {
    UInt64(settings.timeoutSeconds.map { $0 * 1000 } ?? core.config.hookTimeoutMs)
  }

  /// A run or the followed command ended: what it printed last, and the end, to the core.
  private func finish(_ source: String, _ finished: ExecRunner.Finished, follows: Bool) {
    runs[source] = nil
    guard follows else {
      feed(.exec(source: source, .ran(output: finished.output, timedOut: finished.ending == .timedOut)))
      return
    }
    if !finished.output.isEmpty { feed(.exec(source: source, .printed(finished.output))) }
    feed(.exec(source: source, .exited))
  }

  /// A notmuch source's job, to its database's worker (made at its first job, made anew when
  /// a reload changed the source's settings); the answer comes back to the core on the loop.
  func notmuch(_ source: String, _ job: NotmuchJob) {
    guard let spec = core.config.source(named: source), case .notmuch(let settings) = spec.settings else { return }
    let worker: NotmuchWorker
    if let held = notmuchWorkers[source], held.settings == settings {
      worker = held.worker
    } else {
      notmuchWorkers[source]?.worker.stop()
      notmuchWorkers[source] = nil
      let location = NotmuchWorker.Location(
        path: settings.databasePath(home: Array(Environment.home.utf8)), profile: settings.profile)
      do {
        worker = try NotmuchWorker(loop: loop, location: location)
      } catch {
        feed(.notmuch(source: source, .failed("cannot start its database's thread: \(error)")))
        return
      }
      notmuchWorkers[source] = (settings, worker)
    }
    worker.run(job, excluding: settings.exclude) { [unowned self] result in feed(.notmuch(source: source, result)) }
  }

  /// Ends the workers of notmuch sources a reload stopped or changed: answers to their jobs
  /// are dropped, and a changed source's next job starts a worker of its own.
  func dropNotmuchWorkers(keeping config: SourcesConfig) {
    for (source, held) in notmuchWorkers {
      if case .notmuch(let settings) = config.source(named: source)?.settings, settings == held.settings { continue }
      held.worker.stop()
      notmuchWorkers[source] = nil
    }
  }
}
