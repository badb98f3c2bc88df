extension Store {
  /// What the store knows of `id`: a new request's, a retried request's (`repeated`: carried
  /// out already, to be answered without carrying it out again), or another request's
  /// (`reused`).
  @inline(__always)
  public func lookup(_ id: RequestID) -> RequestIDTable.Lookup {
    requestIDs.lookup(id)
  }

  /// Saves the id of the request whose change `apply` just made (its `id` not saved yet:
  /// `lookup` said `unknown`): it rides in that change's record, under the change's number.
  public func saveID(ofChange id: RequestID) {
    remember(id)
  }

  /// Saves the id of a request carried out whose record holds no change to ride in: one that
  /// changed nothing (`CLEAR` at 0, do-not-disturb turned on while on), or that changed several
  /// channels (`CLEAR *`, `SEEN *`). It is saved under a sequence number of its own, so that a
  /// snapshot taken before it never covers it; no channel's `seq` shows that number.
  ///
  /// - Returns: that number (`seq`), for the id's record.
  @discardableResult
  public func saveID(_ id: RequestID) -> UInt64 {
    remember(id)
    seq += 1
    return seq
  }

  /// Saves `id` in the table, with how to take it back (the undo keeps `seq` from before the
  /// turn's first change or id).
  private func remember(_ id: RequestID) {
    undo.saved(id, forgetting: requestIDs.insert(id), seq: seq)
  }

  /// Puts back a saved id (recovery), as the newest; an id saved already (a journal left from
  /// before a compaction repeats what the snapshot holds) stays where it is.
  public func restoreID(_ id: RequestID) {
    if requestIDs.lookup(id) == .unknown { requestIDs.insert(id) }
  }
}
