extension Store {
  /// Turns do-not-disturb on (`until` 0: until turned off) or off, calling `changed` with every
  /// channel it starts or stops silencing. A silenced channel's pulse window ends. Counts and
  /// `seq` stay: a channel's own state did not change, only how it shows.
  ///
  /// - Returns: whether the state changed (on to off, off to on, or a new end).
  @discardableResult
  public func setDND(_ state: DoNotDisturb, changed: (Channel) -> Void = { _ in }) -> Bool {
    guard state != dnd else { return false }
    undo.dndChanging(from: dnd, stamp: dndStamp)
    dnd = state
    resilence(changed)
    return true
  }

  /// Marks the last change of do-not-disturb with where and when it was made (with the
  /// change, in the same turn, so undoing one undoes both).
  public func stampDND(_ stamp: DNDStamp) {
    undo.dndChanging(from: dnd, stamp: dndStamp)
    dndStamp = stamp
  }

  /// Puts back the stamp of do-not-disturb's last change (recovery).
  public func restoreDNDStamp(_ stamp: DNDStamp?) {
    dndStamp = stamp
  }

  /// When a timed do-not-disturb ends, if one runs.
  public var nextDNDDeadline: UInt64? {
    dnd.isOn && dnd.until > 0 ? dnd.until : nil
  }

  /// Ends a timed do-not-disturb due at `now`, calling `changed` as `setDND` does. Derived from
  /// time like a pulse window's end, it is not a change: there is nothing to undo.
  ///
  /// - Returns: whether it ended.
  @discardableResult
  public func expireDND(now: UInt64, changed: (Channel) -> Void = { _ in }) -> Bool {
    guard let deadline = nextDNDDeadline, deadline <= now else { return false }
    dnd = .off
    resilence(changed)
    return true
  }

  /// Puts do-not-disturb as it is now into every channel: each channel it starts or stops
  /// silencing gets its new `silenced` (a silenced one stops pulsing), and `changed` is called
  /// with it. The one loop behind turning do-not-disturb on or off, its end, and undoing it.
  func resilence(_ changed: (Channel) -> Void) {
    for i in channels.indices {
      let silenced = silencing(channels[i].settings)
      guard silenced != channels[i].silenced else { continue }
      channels[i].silenced = silenced
      if silenced != nil { endPulse(at: i) }
      changed(channels[i])
    }
  }

  /// How do-not-disturb shows a channel with `settings` now; `nil` when it does not silence it.
  func silencing(_ settings: ChannelSettings) -> DNDBadges? {
    dnd.isOn && settings.dnd == .obey ? config.dndBadges : nil
  }
}
