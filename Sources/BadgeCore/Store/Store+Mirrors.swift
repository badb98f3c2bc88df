extension Store {
  /// The rules of mirrored channels on the path of every change (`apply`): a write to a
  /// mirrored channel is forwarded to its owner (the write returned, a clear or sight of every
  /// item up to the total shown here), `CONFIGURE` of one is refused (its settings are its
  /// owner's), the owner's state is refused for a channel that is local here, and a write is
  /// refused while the outbox is full.
  func forwardedWrite(_ mutation: Mutation, _ channel: Channel, at position: Int?) throws(MutationError)
    -> ChannelWrite?
  {
    guard let mirror = channel.mirror else {
      if case .mirror = mutation, position != nil { throw .local }
      return nil
    }
    let write: ChannelWrite
    switch mutation {
    case .mirror, .mirrorState, .forgetMirror, .write(.pulse): return nil
    case .configure: throw .mirrored(owner: mirror.owner)
    // A source's report is the owner's to make: it is never forwarded.
    case .write(.report): throw .mirrored(owner: mirror.owner)
    case .write(let made): write = made.forwarded(shownTotal: channel.total)
    }
    try checkOutboxRoom(for: mirror.owner)
    return write
  }

  /// Refuses a write for `owner` when the outbox is full, in all or for that owner.
  private func checkOutboxRoom(for owner: String) throws(MutationError) {
    if outbox.isFull { throw .outboxFull(capacity: outbox.capacity) }
    if outbox.isFull(for: owner) { throw .ownerOutboxFull(owner: owner, capacity: outbox.ownerCapacity) }
  }

  /// Puts a forwarded write in the outbox with the change it came with (numbered `seq`), and
  /// marks the channel pending.
  func takeForward(_ write: ChannelWrite, of channel: inout Channel) -> ForwardEntry {
    undo.outboxChanging(from: outbox)
    let entry = outbox.add(channel.name, owner: channel.mirror?.owner ?? "", write: write, seq: seq)
    channel.mirror?.pending = true
    return entry
  }

  /// Forwards `PULSE` of a mirrored channel (no change of its state here beyond the window,
  /// which `pulse` starts): the outbox takes it (its owner's `PULSE` takes no id, so it goes
  /// without one) and the channel is marked pending. Returns the outcome, `nil` for a channel
  /// not mirrored.
  ///
  /// - Throws: `MutationError.outboxFull` or `.ownerOutboxFull` when the outbox is full, in
  ///   all or for the channel's owner.
  public func forwardPulse(_ name: ChannelName, ms: Int?, now: UInt64) throws(MutationError) -> Outcome? {
    guard let position = slot(of: name), let mirror = channels[position].mirror else { return nil }
    try checkOutboxRoom(for: mirror.owner)
    let before = channels[position]
    var after = before
    undo.changed(name, before: before, day: today, history: .unchanged, seq: seq)
    seq += 1
    after.seq = seq
    let entry = takeForward(.pulse(ms: ms), of: &after)
    store(after, at: position)
    return Outcome(channel: after, changed: true, previousCount: before.count, day: nil, forwarded: Forwarded(entry))
  }

  /// Removes the write `id` from the outbox (`DELIVERED`: its owner applied it, or refused it
  /// for good). Returns it, or `nil` when no write waits with that id.
  public func deliver(_ id: String) -> ForwardEntry? {
    guard outbox.entries.contains(where: { $0.id == id }) else { return nil }
    undo.outboxChanging(from: outbox)
    return outbox.remove(id: id)
  }

  /// The mirrored channels, of `owner` only when given, sorted by name.
  public func mirrored(ownedBy owner: String? = nil) -> [Channel] {
    channels.filter { channel in
      guard let mirror = channel.mirror else { return false }
      return owner == nil || mirror.owner == owner
    }.sorted { $0.name < $1.name }
  }

  /// Puts back the outbox as it was persisted (recovery): its entries in order and the counter
  /// of the next id; `finishRestoringMirrors` then marks the channels with writes pending.
  public func restoreForward(_ entry: ForwardEntry) {
    outbox.restore(entry)
  }

  /// A write the journal says was delivered (recovery).
  public func restoreDelivered(_ id: String) {
    outbox.remove(id: id)
  }

  /// Sets how the outbox numbers the ids of writes taken from now on: the machine's name, the
  /// state folder's epoch, and a counter at least `counter`.
  public func setForwardIDs(host: String, epoch: UInt64, counter: UInt64 = 1) {
    outbox.host = host
    outbox.epoch = epoch
    outbox.restoreCounter(atLeast: counter)
  }

  /// After loading: every mirrored channel is stale (this machine has not heard from its owner
  /// since it started), since the second it was last heard from, or `since` when it was
  /// fresh when saved; and pending while the outbox holds writes for it. Not a change: the
  /// state loaded is what the files say, with what only this start knows.
  public func finishRestoringMirrors(since: Int) {
    outbox.countOwners { name in slot(of: name).flatMap { channels[$0].mirror?.owner } }
    for i in channels.indices {
      guard var mirror = channels[i].mirror else { continue }
      if !mirror.stale {
        mirror.stale = true
        mirror.since = since
      }
      mirror.pending = outbox.hasPending(channels[i].name)
      channels[i].mirror = mirror
    }
  }
}
