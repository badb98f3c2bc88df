import BadgeCore
import BadgeProtocol

/// The requests that control when badges ask for attention: `PULSE` and `DND`. (`SEEN` is a
/// write like the others.)
extension CommandExecutor {
  /// `PULSE <channel> [ms]`: starts or extends the pulse window without changing the count; a
  /// muted, silenced or empty channel is left alone, silently, as an increase would be. Not a
  /// change: its event is staged like a pulse window's end. Replies with the channel's state.
  func pulse(_ name: ChannelName, for ms: Int?, _ client: Client, now: UInt64) {
    if store.channel(named: name).mirror != nil {
      // A mirrored channel's pulse goes to its owner too, saved in the outbox like a write.
      if refuseChange(client) { return }
      do throws(Store.MutationError) {
        if let outcome = try store.forwardPulse(name, ms: ms, now: now) { commit.changed(outcome, by: client) }
      } catch {
        appendRefusal(.refused(error), command: .pulse, name, client)
        return
      }
    }
    let line = store.pulse(name, for: ms, now: now).flatMap { commit.stage($0) }
    appendState(store.channel(named: name), line: line, to: client, now: now)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `DND [on [<duration>] | off | toggle]`: replies with the `*` line of the state after it.
  /// A change is saved before the reply, like a channel's, with the request's id, and pushed
  /// to every watcher.
  ///
  /// A change is stamped no earlier than one past the last change here (`nextLocalDNDStamp`),
  /// also when that one came from another machine: a change made after one this machine took
  /// orders after it everywhere, even on a machine whose clock is behind. The bridge publishes
  /// the stamp as it is, so this machine and the others weigh the change the same.
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
        store.stampDND(nextLocalDNDStamp)
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

  /// `DND on|off [<duration>] from=<host> at=<unix ms>`: another machine's change, applied
  /// unless the last change here is as new or newer (by time, then host name): then it is
  /// answered with the state as it is and `OK older`, and nothing changes. So every machine
  /// ends on the newest change, whatever order the changes arrive in.
  ///
  /// A newer change that leaves do-not-disturb as it is here is still taken: its stamp is
  /// saved and pushed to watchers (the bridge publishes it as this machine's state), so an
  /// older change that comes after it is refused here as everywhere.
  ///
  /// The last change is compared as it was stamped: one made here carries the bridge's name
  /// (`localDNDHost`, `bridgeNamed`), the name every other machine weighs it under.
  func remoteDND(_ change: RemoteDND, _ client: Client, now: UInt64) {
    if refuseChange(client) { return }
    let stamp = DNDStamp(at: change.at, host: change.from, remote: true)
    if let last = store.dndStamp, !(last < stamp) {
      appendDND(to: client, now: now)
      ReplyEncoder.appendOK("older", to: &client.output)
      return
    }
    let wanted = change.on ? DoNotDisturb(isOn: true, until: change.ms.map { now + UInt64($0) * 1000 } ?? 0) : .off
    var silenced: [Channel] = []
    store.setDND(wanted, changed: { silenced.append($0) })
    store.stampDND(stamp)
    let line = commit.changedDND(by: client, silenced: silenced)
    logger.info("Do-not-disturb is \(change.on ? "on" : "off"), as host '\(change.from)' set it.")
    appendDND(line: line, to: client, now: now)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// The stamp of a do-not-disturb change made here now: this machine's wall clock, or one past
  /// the last change's time when that is later.
  var nextLocalDNDStamp: DNDStamp {
    let last = store.dndStamp.map { $0.at == .max ? $0.at : $0.at + 1 } ?? 0
    return DNDStamp(at: max(turn.wallMilliseconds(), last), host: localDNDHost)
  }

  /// The name a do-not-disturb change made here is stamped with: the bridge's (`BRIDGE host=`,
  /// `[mqtt] host`) once one has said it, the name the bridge publishes the change under and so
  /// the one every other machine orders it by (a tie at one millisecond then breaks here as
  /// there); before that, this machine's (`Environment.hostName`, the bridge's default too).
  var localDNDHost: String { bridge.host.isEmpty ? store.outbox.host : bridge.host }

  /// A bridge said its name (`BRIDGE host=`): the last change, when it was made here, takes it.
  ///
  /// Such a stamp can carry another name: the change was made before any bridge connected
  /// (under this machine's name), or by an earlier run and loaded from the journal or the
  /// snapshot, whose records keep the name it was made with (under this machine's name, or an
  /// earlier bridge's, before `[mqtt] host` changed). Only a bridge sends `DND … from=`, and
  /// only after saying its name, so once renamed here every stamp the comparison meets has the
  /// name it is published under, and `remoteDND` compares stamps as they are. The rename is
  /// not a change of do-not-disturb: nothing is saved for it (the next snapshot keeps the new
  /// name; a restart loads the old one, and the bridge's next `BRIDGE host=` renames it again),
  /// so it is put in place as recovery puts a stamp back, outside the turn's undo.
  func bridgeNamed() {
    guard let stamp = store.dndStamp, !stamp.remote, stamp.host != bridge.host else { return }
    store.restoreDNDStamp(DNDStamp(at: stamp.at, host: bridge.host))
  }

  /// The do-not-disturb line in a reply: the staged event's `line` when there is one, else
  /// encoded here. The client now depends on the turn if it is unsaved.
  func appendDND(line: Range<Int>? = nil, to client: Client, now: UInt64) {
    commit.observed(by: client)
    if let line {
      commit.events.appendReply(line, to: &client.output)
    } else {
      ReplyEncoder.appendDND(store.dnd, kind: .state, now: now, stamp: store.dndStamp, to: &client.output)
    }
  }
}
