import BadgeCore
import BadgeProtocol

/// The requests that control when badges ask for attention: `SEEN *`, `PULSE` and `DND`.
/// (`SEEN <channel>` is a plain mutation.)
extension CommandExecutor {
  /// `SEEN *`: every channel with unseen items, each with a state line.
  func seeAll(_ client: Client, now: UInt64, id: RequestID?) {
    if refuseChange(client) { return }
    store.seeAll(now: now) { outcome in
      appendState(outcome.channel, line: commit.changed(outcome, by: client), to: client, now: now)
    }
    if let id { saveAlone(id, by: client) }
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `PULSE <channel> [ms]`: starts or extends the pulse window without changing the count; a
  /// muted, silenced or empty channel is left alone, silently, as an increase would be. Not a
  /// change: its event is staged like a pulse window's end. Replies with the channel's state.
  func pulse(_ name: ChannelName, for ms: Int?, _ client: Client, now: UInt64) {
    let line = store.pulse(name, for: ms, now: now).flatMap { commit.stage($0) }
    appendState(store.channel(named: name), line: line, to: client, now: now)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `DND [on [<duration>] | off | toggle]`: replies with the `*` line of the state after it.
  /// A change is saved before the reply, like a channel's, with the request's id, and pushed
  /// to every watcher.
  func doNotDisturb(_ request: DNDRequest, _ client: Client, now: UInt64, id: RequestID?) {
    let wanted: DoNotDisturb?
    switch request {
    case .query: wanted = nil
    case .on(let ms): wanted = DoNotDisturb(isOn: true, until: ms.map { now + UInt64($0) * 1000 } ?? 0)
    case .off: wanted = .off
    case .toggle: wanted = store.dnd.isOn ? .off : DoNotDisturb(isOn: true, until: 0)
    }
    var line: Range<Int>?
    if let wanted {
      if refuseChange(client) { return }
      var silenced: [Channel] = []
      if store.setDND(wanted, changed: { silenced.append($0) }) {
        let saved = id.map { SavedRequestID(seq: store.saveID($0), id: $0) }
        line = commit.changedDND(by: client, silenced: silenced, id: saved)
        logger.info(
          wanted.isOn
            ? "Do-not-disturb is on\(wanted.until > 0 ? " for \(wanted.leftMs(at: now)) ms" : "")."
            : "Do-not-disturb is off.")
      } else if let id {
        saveAlone(id, by: client)
      }
    }
    appendDND(line: line, to: client, now: now)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// The do-not-disturb line in a reply: the staged event's `line` when there is one, else
  /// encoded here. The client now depends on the turn if it is unsaved.
  func appendDND(line: Range<Int>? = nil, to client: Client, now: UInt64) {
    commit.observed(by: client)
    if let line {
      commit.events.appendReply(line, to: &client.output)
    } else {
      ReplyEncoder.appendDND(store.dnd, kind: .state, now: now, to: &client.output)
    }
  }
}
