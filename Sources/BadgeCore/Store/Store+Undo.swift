extension Store {
  /// Whether changes are remembered until `forgetUndo()`, so `undoChanges` can take them back.
  public var keepsUndo: Bool {
    get { undo.isOn }
    set { undo.isOn = newValue }
  }

  /// Whether changes were made since the last `forgetUndo()` (with `keepsUndo` on).
  public var hasUndo: Bool { !undo.isEmpty }

  /// The changes so far are saved: they will never be undone.
  public func forgetUndo() {
    undo.forget()
  }

  /// Takes back every change since the last `forgetUndo()`, newest first, so each touched
  /// channel, its day of history, the request ids, `seq` and `totalFloor` are as they were
  /// before; calls `undone` with each touched channel's name (once per change, so a name may
  /// come more than once). Settings from the config stay those in force now (a reload in
  /// between is not undone), and a restored pulse window ends on time.
  public func undoChanges(_ undone: (ChannelName) -> Void = { _ in }) {
    // The floor first: a channel the changes made is made anew below as it was then.
    if let before = undo.totalFloorBefore { totalFloor = before }
    for entry in undo.entries.reversed() {
      dayHistory.putBack(entry.history, at: historyPlace(of: entry.name), on: entry.day)
      // The change may have forgotten the channel (cleared to 0), or made it (`before` is
      // nil): `store` puts back, or forgets, whatever it was.
      // The pulse queue follows the window put back (`store`).
      var channel = entry.before ?? newChannel(entry.name)
      applyConfig(to: &channel)
      store(channel, at: slot(of: entry.name))
      undone(entry.name)
    }
    for forgotten in undo.forgottenIDs.reversed() { requestIDs.removeNewest(restoring: forgotten) }
    if undo.movedSeq { seq = undo.seqBefore }
    if let before = undo.dndBefore {
      dnd = before
      dndStamp = undo.dndStampBefore
    }
    if let before = undo.outboxBefore { outbox = before }
    undo.forget()
    // Do-not-disturb as it is now (back, or unchanged) decides how every channel shows.
    resilence { undone($0.name) }
  }
}
