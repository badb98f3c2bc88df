import BadgeCore
import BadgeProtocol

/// The daemon's side of the router: attach and claims on each connection, write answers,
/// clicks, the connection's end.
extension SourcesCore {
  /// Attach, claim every channel known, send again the writes that got no answer (unchanged,
  /// with their ids), then recount everything: the daemon may have restarted or lost a write.
  func daemonConnected() {
    connected = true
    outbox.append(.request(SourcesDaemonRequest(.sources(.attach))))
    for spec in config.sources {
      for channel in channels.names(of: spec.name) { claim(channel, of: spec) }
    }
    for (channel, source, onClear) in channels.releasing {
      outbox.append(.request(.claim(source: source, channel: channel, onClear: onClear)))
    }
    if let configError { outbox.append(.request(SourcesDaemonRequest(.sources(.config(error: configError))))) }
    outbox += channels.resends(now: time.boottime).map { .request($0) }
    for spec in config.sources where sources[spec.name] != nil { sendStatus(spec) }
    recountAll()
  }

  /// `SOURCE <source> claim <channel> on_clear=…`.
  func claim(_ channel: ChannelName, of spec: SourceSpec) {
    outbox.append(.request(.claim(source: spec.name, channel: channel, onClear: spec.onClear)))
  }

  func daemonClosed() {
    connected = false
    armed = nil
    channels.connectionClosed()
  }

  func daemon(_ answer: SourcesDaemonAnswer) {
    switch answer {
    case .claimed(let channel, let count, _):
      channels.claimed(channel, count: count)
    case .answered(let id, let total):
      _ = channels.answered(id, total: total)
    case .refused(let id, let reason):
      if let id, let channel = channels.answered(id, total: nil) {
        outbox.append(.log(.error, "The daemon refused the write to \(channel): \(reason)."))
      } else {
        outbox.append(.log(.error, "The daemon refused a request: \(reason)."))
      }
    case .cleared(let channel, let upto):
      let covered = channels.cleared(channel, upto: upto)
      guard !covered.isEmpty, let source = channels.channels[channel]?.source else { return }
      turn(source) { source, turn in source.markRead(covered, into: &turn) }
    case .reloaded:
      outbox.append(.reloadConfig)
    }
  }
}
