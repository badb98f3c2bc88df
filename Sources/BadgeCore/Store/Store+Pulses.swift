extension Store {
  /// Starts the channel's pulse window, or extends it, without changing its count: `PULSE`,
  /// and what an app's `urgent` flag asks for; the one mechanism for any pulse that is not an
  /// increase. The window lasts `ms`, or the channel's `pulse_ms` without it. It follows the
  /// rules of an increase: a muted or silenced channel, a channel at 0 and `pulse_ms = 0` (when
  /// `ms` is not given) do not pulse, and a window never ends earlier than it would have. Like a
  /// window's end it is not a change: `seq` stays and nothing needs persisting.
  ///
  /// - Returns: the channel when its window started or moved later (to push to watchers).
  @discardableResult
  public func pulse(_ name: ChannelName, for ms: Int? = nil, now: UInt64) -> Channel? {
    guard let position = slot(of: name) else { return nil }  // never written: count 0
    let until = pulseDeadline(channels[position], ms: ms, now: now)
    guard until > channels[position].pulseUntil else { return nil }
    channels[position].pulseUntil = until
    queuePulse(at: position)
    return channels[position]
  }

  /// When the next pulse window ends, if any channel pulses.
  public var nextPulseDeadline: UInt64? {
    pulses.earliest
  }

  /// Ends the pulse windows due at `now`, calling `ended` with each such channel. Ending a
  /// window is not a change: `seq` stays.
  public func expirePulses(now: UInt64, ended: (Channel) -> Void) {
    while let due = pulses.popDue(at: now) {
      channels[due.channel].pulseUntil = 0
      ended(channels[due.channel])
    }
  }

  /// The number of pulse windows queued: one per pulsing channel, whatever the rate of
  /// increases (for tests of that bound).
  var queuedPulseCount: Int { pulses.count }

  /// When the window of the channel called `name` ends by the pulse queue, if it is queued
  /// (for tests that its entry follows the channel's slot).
  func queuedPulseDeadline(of name: ChannelName) -> UInt64? {
    slot(of: name).flatMap { pulses.deadline(of: $0) }
  }

  /// Every increase restarts the window; reaching 0, being muted or silenced ends it. With
  /// `pulse_ms` at 0 the restarted window is empty, so an increase ends a window begun under a
  /// longer one. The queue follows when the channel is stored (`store`).
  func updatePulse(_ channel: inout Channel, grew: Bool, now: UInt64) {
    if grew {
      channel.pulseUntil = pulseDeadline(channel, ms: nil, now: now)
    } else if channel.count == 0 || channel.settings.muted || channel.silenced != nil {
      channel.pulseUntil = 0
    }
  }

  /// Ends the window of the channel at `slot`, if it pulses.
  func endPulse(at slot: Int) {
    guard channels[slot].pulseUntil != 0 else { return }
    channels[slot].pulseUntil = 0
    pulses.remove(slot)
  }

  /// Puts the pulse queue's entry of the channel at `slot` in line with its `pulseUntil`: the
  /// one place, with `forget`, that the queue changes, so that it holds an entry for a slot
  /// exactly while its channel pulses.
  func queuePulse(at slot: Int) {
    let until = channels[slot].pulseUntil
    if until != 0 { pulses.schedule(until, for: slot) } else { pulses.remove(slot) }
  }

  /// When a window started at `now` ends: `ms` (or `pulse_ms`) later, or 0 (no window) for a
  /// channel at 0, a muted or silenced one, or an empty window.
  private func pulseDeadline(_ channel: Channel, ms: Int?, now: UInt64) -> UInt64 {
    let length = ms ?? channel.settings.pulseMs
    guard channel.count > 0, !channel.settings.muted, channel.silenced == nil, length > 0 else { return 0 }
    return now + UInt64(length) * 1000
  }
}
