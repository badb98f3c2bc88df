import BadgeConfig
import BadgeCore
import BadgeProtocol

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
      if connected { outbox.append(.request(SourcesDaemonRequest(.sources(.config(error: configError))))) }
      return
    case .success(let config):
      new = config
    }
    if configError != nil {
      configError = nil
      if connected { outbox.append(.request(SourcesDaemonRequest(.sources(.config(error: nil))))) }
    }
    let plan = ReloadPlan(old: config, new: new)
    for name in plan.stopped + plan.restarted {
      for channel in channels.names(of: name) {
        // Named again (by the restarted source or another): claimed afresh by whoever names
        // or finds it, with its kind and on_clear, another source once this one let it go;
        // else it is no one's and goes to 0.
        guard let owner = Self.owner(of: channel, in: new) else {
          channels.release(channel)
          continue
        }
        let claimed = channels.channels[channel]?.claimed == true
        channels.forget(channel)
        if owner != name && claimed { outbox.append(.request(SourcesDaemonRequest(.source(name, .release(channel))))) }
        if owner == name && !named(channel, in: new) { leftOver[name, default: []].append(channel) }
      }
      if new.source(named: name) == nil {
        leftOver[name] = nil
        // Its last report leaves `badgectl sources` (its channels go as each is released).
        if connected { outbox.append(.request(SourcesDaemonRequest(.source(name, .stopped)))) }
      }
      stop(name)
    }
    config = new
    statusDue = true
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

  /// Whether a source of `config` names `channel` outright.
  func named(_ channel: ChannelName, in config: SourcesConfig) -> Bool {
    config.sources.contains { $0.fixedChannels.contains(channel) }
  }

  /// Once a restarted source counted, the channels its template made before that it did not
  /// find again: claimed, written 0 and released, as a stopped source's are.
  func settleLeftOvers() {
    for name in leftOver.keys.sorted() where counted.contains(name) {
      let list = leftOver.removeValue(forKey: name) ?? []
      guard let spec = config.source(named: name) else { continue }
      for channel in list where channels.channels[channel] == nil {
        channels.ensure(channel, for: spec)
        channels.release(channel)
        if connected { claim(channel, of: spec) }
      }
    }
  }

  /// The source of `config` that names `channel` outright or whose template can make it.
  static func owner(of channel: ChannelName, in config: SourcesConfig) -> String? {
    config.sources.first { spec in
      if case .template(let template) = spec.channel { return template.couldMake(channel) }
      return spec.fixedChannels.contains(channel)
    }?.name
  }

  /// Stops source `name`: its watches dropped, its command and its process group killed, its
  /// IMAP connections closed, and everything the core kept for it forgotten.
  private func stop(_ name: String) {
    for tag in (watched.removeValue(forKey: name) ?? []).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      outbox.append(.unwatch(source: name, tag: tag))
    }
    if case .exec(let source) = sources[name], source.running, runs.isRunning(name) || !isIntervalRun(name) {
      outbox.append(.kill(source: name))
      if runs.isRunning(name) { killedRuns.insert(name) }
    }
    if case .imap = sources[name] { outbox.append(.imap(source: name, .stop)) }
    sources[name] = nil
    wakes[name] = nil
    counted.remove(name)
    health[name] = nil
    changed[name] = nil
  }
}
