import CSystemd
import Glibc

/// The loop's turn around a poll set: one `epoll_wait` serves every ready client, as Redis's
/// loop does, with sd-event kept for timers, signals, child processes, the bus and the
/// watchdog.
///
/// sd-event's own descriptor (its epoll) is in the poll set, so its timers, signals and
/// sources wake the same wait. A turn:
/// 1. When sd-event is back in its initial state, `sd_event_prepare` runs its prepare
///    callbacks (the bus's) and arms its timer descriptors. If something is pending, that one
///    source is dispatched (`sd_event_dispatch`) and the turn is over: sd-event's post sources
///    then end a turn of its sources in the iterations that follow, as under `sd_event_run`.
///    Otherwise sd-event stays armed, and may stay so over many turns of clients.
/// 2. One `epoll_wait` on the poll set, for ever (or the caller's timeout; none at all when
///    the poll set has work left from its last turn). sd-event's timers wake it through its
///    descriptor.
/// 3. The ready clients are served (`PollSet`'s handler), and the loop calls every post
///    handler once, ending their turn: the `beforeSleep` of Redis.
/// 4. Only when sd-event's descriptor was ready, or a change while it was armed needs it
///    (`mustPrepare`: a timer armed or moved earlier would otherwise be missed, as armed
///    timers are programmed in `sd_event_prepare` alone), `sd_event_wait(…, 0)` collects what
///    is ready and dispatches one source, which returns sd-event to its initial state.
extension EventLoop {
  func turn(around poll: PollSet, timeout: UInt64) throws(SystemError) -> Bool {
    switch sd_event_get_state(raw) {
    case CInt(SD_EVENT_FINISHED):
      return false
    case CInt(SD_EVENT_INITIAL):
      let prepared = sd_event_prepare(raw)
      try checkSD(prepared, "prepare the event loop")
      if prepared > 0 { return try dispatch() }
      mustPrepare = false
    default:
      break  // armed since a turn that served the poll set alone
    }
    let loopReady = poll.wait(timeout: poll.servesNextTurn ? 0 : timeout)
    instant = Environment.monotonicMicroseconds
    let served = poll.serve()
    if served { runPostHandlers() }
    guard loopReady || mustPrepare else { return served }
    return try finishArmed(timeout: 0) || served
  }

  /// From the armed state: collects what is ready within `timeout` (`sd_event_wait`) and
  /// dispatches one source. sd-event is in its initial state again afterwards.
  func finishArmed(timeout: UInt64) throws(SystemError) -> Bool {
    mustPrepare = false
    let waited = sd_event_wait(raw, timeout)
    try checkSD(waited, "wait for the event loop")
    return waited > 0 ? try dispatch() : false
  }

  /// Dispatches the pending source at sd-event's instant.
  private func dispatch() throws(SystemError) -> Bool {
    if instant != nil { instant = sdEventNow }
    try checkSD(sd_event_dispatch(raw), "dispatch an event source")
    return true
  }

  /// Ends a turn that served the poll set: every post handler, once.
  private func runPostHandlers() {
    for post in postSources {
      guard let source = post.source, source.raw != nil else { continue }
      withExtendedLifetime(source) { source.handler() }
    }
  }
}
