import BadgeCore
import BadgeProtocol
import BadgeSystem

/// The requests that control when badges ask for attention: `SEEN *`, `PULSE` and `DND`.
/// (`SEEN <channel>` is a plain mutation.)
extension CommandExecutor {
  /// `SEEN *`: every channel with unseen items, each with a state line.
  func seeAll(_ peer: Peer, now: UInt64) {
    if refuseChange(peer) { return }
    store.seeAll(now: now) { outcome in
      commit.changed(outcome, by: peer)
      ReplyEncoder.appendState(outcome.channel, kind: .state, now: now, to: &peer.output)
    }
    ReplyEncoder.appendOK(to: &peer.output)
  }

  /// `PULSE <channel> [ms]`: starts or extends the pulse window without changing the count; a
  /// muted, silenced or empty channel is left alone, silently, as an increase would be. Not a
  /// change: its event is staged like a pulse window's end. Replies with the channel's state.
  func pulse(_ name: ChannelName, for ms: Int?, _ peer: Peer, now: UInt64) {
    if let channel = store.pulse(name, for: ms, now: now) { commit.stage(channel) }
    commit.observed(by: peer)
    ReplyEncoder.appendState(store.channel(named: name), kind: .state, now: now, to: &peer.output)
    ReplyEncoder.appendOK(to: &peer.output)
  }

  /// `DND [on [<duration>] | off | toggle]`: replies with the `*` line of the state after it.
  /// A change is saved before the reply, like a channel's, and pushed to every watcher.
  func doNotDisturb(_ request: DNDRequest, _ peer: Peer, now: UInt64) {
    let wanted: DoNotDisturb?
    switch request {
    case .query: wanted = nil
    case .on(let ms): wanted = DoNotDisturb(isOn: true, until: ms.map { now + UInt64($0) * 1000 } ?? 0)
    case .off: wanted = .off
    case .toggle: wanted = store.dnd.isOn ? .off : DoNotDisturb(isOn: true, until: 0)
    }
    if let wanted {
      if refuseChange(peer) { return }
      var silenced: [Channel] = []
      if store.setDND(wanted, changed: { silenced.append($0) }) {
        commit.changedDND(by: peer, silenced: silenced)
        logger.info(
          wanted.isOn
            ? "Do-not-disturb is on\(wanted.until > 0 ? " for \(wanted.leftMs(at: now)) ms" : "")."
            : "Do-not-disturb is off.")
      }
    }
    appendDND(to: peer, now: now)
    ReplyEncoder.appendOK(to: &peer.output)
  }

  /// The do-not-disturb line in a reply; the peer now depends on the turn if it is unsaved.
  func appendDND(to peer: Peer, now: UInt64) {
    commit.observed(by: peer)
    ReplyEncoder.appendDND(store.dnd, kind: .state, now: now, to: &peer.output)
  }
}
