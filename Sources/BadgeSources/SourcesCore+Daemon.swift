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
    // Claims left from an earlier run of a file that changed meanwhile (`sourceChannels`).
    outbox.append(.request(SourcesDaemonRequest(.list)))
    for spec in config.sources where sources[spec.name] != nil { sendStatus(spec) }
    recountAll()
  }

  /// The daemon's claimed channels, with their sources, as the daemon kept them from this
  /// program's earlier runs (it keeps claims while it runs) for a file that changed meanwhile:
  /// a channel no source of this file counts or could name is claimed for its old source,
  /// written 0 and released, as a reload does with a removed source's, so that none stays stale
  /// and refused to other programs; a channel another source of this file names now (a source
  /// renamed), whose claim the daemon refused, is released by the old name and claimed again.
  func releaseLeftClaims(_ claims: [ChannelName: String]) {
    for (channel, source) in claims.sorted(by: { $0.key < $1.key }) {
      let owner = Self.owner(of: channel, in: config)
      if owner == nil && channels.channels[channel] == nil {
        outbox.append(
          .log(
            .notice, "Releasing \(channel): source '\(source)' counted it, and \(config.file) has no such source now."))
        channels.adoptReleasing(channel, source: source)
        outbox.append(.request(.claim(source: source, channel: channel, onClear: .seen)))
      } else if let owner, owner != source, let spec = config.source(named: owner),
        channels.channels[channel]?.claimed == false
      {
        outbox.append(.log(.notice, "Handing \(channel) from source '\(source)' to source '\(owner)'."))
        outbox.append(.request(SourcesDaemonRequest(.source(source, .release(channel)))))
        claim(channel, of: spec)
      }
    }
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
    case .sourceChannels(let claims):
      releaseLeftClaims(claims)
    }
  }
}
