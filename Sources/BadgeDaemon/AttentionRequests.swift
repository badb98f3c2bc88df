import BadgeCore
import BadgeProtocol
import BadgeSystem

/// The requests that control when badges ask for attention: `PULSE` and `DND`, with the
/// do-not-disturb timer and its events. (`SEEN` is a plain mutation.)
extension Server {
  /// `PULSE <channel> [ms]`: starts or extends the pulse window without changing the count; a
  /// muted, silenced or empty channel is left alone, silently, as an increase would be. Replies
  /// with the channel's state.
  func pulse(_ name: ChannelName, for ms: Int?, _ client: Client) {
    let now = loop.now
    if let channel = store.pulse(name, for: ms, now: now) { push(channel) }
    ReplyEncoder.appendState(store.channel(named: name), kind: .state, now: now, to: &client.output)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// `DND [on [<duration>] | off | toggle]`: replies with the `*` line of the state after it.
  /// A change is saved before the reply, like a channel's, and pushed to every watcher.
  func doNotDisturb(_ request: DNDRequest, _ client: Client) {
    let now = loop.now
    let wanted: DoNotDisturb?
    switch request {
    case .query: wanted = nil
    case .on(let ms): wanted = DoNotDisturb(isOn: true, until: ms.map { now + UInt64($0) * 1000 } ?? 0)
    case .off: wanted = .off
    case .toggle: wanted = store.dnd.isOn ? .off : DoNotDisturb(isOn: true, until: 0)
    }
    if let wanted {
      if refuseChange(client) { return }
      var silenced: [Channel] = []
      if store.setDND(wanted, changed: { silenced.append($0) }) {
        changeLog?.record(store.dnd)
        committed(by: client)
        pushDND(then: silenced)
        logger.info(
          wanted.isOn
            ? "Do-not-disturb is on\(wanted.until > 0 ? " for \(wanted.leftMs(at: now)) ms" : "")."
            : "Do-not-disturb is off.")
      }
    }
    ReplyEncoder.appendDND(store.dnd, kind: .state, now: now, to: &client.output)
    ReplyEncoder.appendOK(to: &client.output)
  }

  /// Pushes the do-not-disturb state to every watcher, whatever it watches, then the channels
  /// it started or stopped silencing: the cause before its effects.
  func pushDND(then channels: [Channel]) {
    defer { channels.forEach(push) }
    let now = loop.now
    for watcher in watchers {
      if watcher.pendingOutput >= Client.eventHighWater || watcher.hasMergedEvents {
        watcher.mergedDND = true
      } else {
        ReplyEncoder.appendDND(store.dnd, kind: .event, now: now, to: &watcher.output)
      }
      queueWrite(watcher)
    }
  }

  /// Arms the one timer at the end of a timed do-not-disturb, if one runs.
  func armDNDTimer() {
    let deadline = store.nextDNDDeadline
    guard deadline != armedDNDDeadline else { return }
    armedDNDDeadline = deadline
    if let deadline { dndTimer?.schedule(at: deadline) } else { dndTimer?.disarm() }
  }

  /// A timed do-not-disturb ended: watchers are told, so that no client needs a timer. Like a
  /// pulse window's end it is derived from time: nothing is saved (a restart reads the end).
  func dndTimerFired() {
    armedDNDDeadline = nil
    var silenced: [Channel] = []
    if store.expireDND(now: loop.now, changed: { silenced.append($0) }) {
      pushDND(then: silenced)
      logger.info("Do-not-disturb ended.")
    }
  }
}
