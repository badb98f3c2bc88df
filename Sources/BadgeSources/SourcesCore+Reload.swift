import BadgeConfig
import BadgeCore

/// A reload: the config file read again, applied as `ReloadPlan` says, or refused whole.
extension SourcesCore {
  /// A refused file changes nothing: one line, and the refusal for `badgectl sources`. An
  /// accepted one stops the sources it lacks or changed (their watches dropped, their commands
  /// killed), sets to 0 and releases the channels no source names any more, and starts the
  /// sources it adds or changed, which recount; a source whose spec is the same runs on
  /// untouched.
  func reload(_ result: Result<SourcesConfig, ConfigError>) {
    let new: SourcesConfig
    switch result {
    case .failure(let error):
      outbox.append(.log(.error, "Reload refused, the sources run on as they were: \(error)."))
      configError = error.description
      if connected { outbox.append(.request(.config(error: configError))) }
      return
    case .success(let config):
      new = config
    }
    if configError != nil {
      configError = nil
      if connected { outbox.append(.request(.config(error: nil))) }
    }
    let plan = ReloadPlan(old: config, new: new)
    let named = Set(new.sources.flatMap(\.fixedChannels))
    let templates = new.sources.compactMap { spec -> ChannelTemplate? in
      if case .template(let template) = spec.channel { return template }
      return nil
    }
    for name in plan.stopped + plan.restarted {
      for channel in channels.names(of: name) {
        // Named again (by the restarted source or another): claimed afresh by whoever names
        // or finds it, with its kind and on_clear; else it is no one's and goes to 0.
        if named.contains(channel) || templates.contains(where: { $0.couldMake(channel) }) {
          channels.forget(channel)
        } else {
          channels.release(channel)
        }
      }
      stop(name)
    }
    config = new
    outbox.append(
      .log(
        .info,
        "Reloaded: \(plan.kept.count) sources kept, \(plan.restarted.count) restarted, "
          + "\(plan.started.count) started, \(plan.stopped.count) stopped."))
    let starting = Set(plan.restarted + plan.started)
    for spec in new.sources where starting.contains(spec.name) {
      add(spec)
      sendStatus(spec)
    }
    for spec in new.sources where starting.contains(spec.name) && sources[spec.name] != nil {
      turn(spec.name) { source, turn in source.recount(at: time, into: &turn) }
    }
  }

  /// Stops source `name`: its watches dropped, its command and its process group killed, and
  /// everything the core kept for it forgotten.
  private func stop(_ name: String) {
    for tag in (watched.removeValue(forKey: name) ?? []).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      outbox.append(.unwatch(source: name, tag: tag))
    }
    if case .exec(let source) = sources[name], source.running { outbox.append(.kill(source: name)) }
    sources[name] = nil
    wakes[name] = nil
    counted.remove(name)
    health[name] = nil
    changed[name] = nil
  }
}
