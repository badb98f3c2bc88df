import Testing

@testable import BadgeCore

/// Mirrored channels in the store: the owner's state put in, local writes forwarded through
/// the outbox (clears as watermarks), what is refused, and undoing it all.
@Suite struct StoreMirrorTests {
  static let ci = MirrorUpdate(owner: "server", count: 3, unseen: 2, total: 10, muted: false, dot: false, ownerSeq: 40)

  static func mirrored() -> Store {
    let store = Store()
    store.setForwardIDs(host: "laptop", epoch: 0x1F)
    apply(.mirror(ci), "ci", on: store)
    return store
  }

  @Test func theOwnersStateIsPutInAsItIs() {
    let store = Self.mirrored()
    let channel = store.channel(named: name("ci"))
    #expect(channel.count == 3 && channel.unseen == 2 && channel.total == 10)
    #expect(channel.mirror == MirrorState(owner: "server", ownerSeq: 40))
    #expect(store.listed.map(\.name) == [name("ci")])
    #expect(store.history.hasDays(name("ci")) == false, "the owner keeps its history")
    // The same state again changes nothing; a new one replaces the view, total included.
    #expect(apply(.mirror(Self.ci), "ci", on: store).changed == false)
    var lower = Self.ci
    lower.count = 1
    lower.total = 1
    let after = apply(.mirror(lower), "ci", on: store).channel
    #expect(after.count == 1 && after.total == 1 && after.unseen == 1)
  }

  @Test func aLocalWriteChangesTheViewAndIsForwardedWithAnId() {
    let store = Self.mirrored()
    let incr = apply(.write(.incr(2)), "ci", on: store)
    #expect(incr.channel.count == 5 && incr.channel.total == 12)
    #expect(incr.channel.mirror?.pending == true)
    #expect(
      incr.forward
        == ForwardEntry(id: "laptop:1f:1", counter: 1, channel: name("ci"), write: .incr(2), seq: 2))
    // A plain clear goes as a clear up to the total shown here; an explicit one as given.
    #expect(apply(.write(.clear(upTo: nil)), "ci", on: store).forward?.write == .clear(upTo: 12))
    apply(.write(.incr(1)), "ci", on: store)
    #expect(apply(.write(.seen(upTo: 13)), "ci", on: store).forward?.write == .seen(upTo: 13))
    #expect(store.outbox.entries.map(\.counter) == [1, 2, 3, 4])
    // The owner's state replaces the view; pending stays while writes wait.
    let owners = apply(.mirror(Self.ci), "ci", on: store).channel
    #expect(owners.count == 3 && owners.mirror?.pending == true)
    // A write that changes nothing here is not forwarded.
    apply(.write(.clear(upTo: nil)), "ci", on: store)
    #expect(apply(.write(.clear(upTo: nil)), "ci", on: store).forward == nil)
    #expect(store.deliver("laptop:1f:1")?.write == .incr(2))
    #expect(store.deliver("laptop:1f:1") == nil, "delivered once")
    #expect(store.outbox.hasPending(name("ci")))
  }

  @Test func configureOfAMirrorAndTheOwnersStateForALocalChannelAreRefused() {
    let store = Self.mirrored()
    #expect(throws: Store.MutationError.mirrored(owner: "server")) {
      try store.apply(.configure(set: SettingsOverride(step: 2), reset: []), to: name("ci"), now: 0)
    }
    apply(.write(.incr(1)), "mail", on: store)
    var mail = Self.ci
    mail.owner = "desktop"
    #expect(throws: Store.MutationError.local) { try store.apply(.mirror(mail), to: name("mail"), now: 0) }
    #expect(store.channel(named: name("mail")).mirror == nil && store.channel(named: name("mail")).count == 1)
  }

  @Test func pastTheOutboxsBoundAWriteIsRefusedAndChangesNothing() {
    let store = Self.mirrored()
    store.outbox.capacity = 2
    apply(.write(.incr(1)), "ci", on: store)
    apply(.write(.incr(1)), "ci", on: store)
    let before = store.channel(named: name("ci"))
    #expect(throws: Store.MutationError.outboxFull(capacity: 2)) {
      try store.apply(.write(.incr(1)), to: name("ci"), now: 0)
    }
    #expect(store.channel(named: name("ci")).count == before.count && store.seq == before.seq)
    #expect(store.outbox.count == 2)
  }

  /// An owner that stays away fills only its own room: writes to its channels are refused
  /// naming it, writes to another owner's still go, and a delivery makes room again. Writes
  /// loaded from the files count for their channels' owners.
  @Test func eachOwnerHasARoomOfItsOwnInTheOutbox() {
    let store = Self.mirrored()
    var disk = Self.ci
    disk.owner = "nas"
    apply(.mirror(disk), "disk", on: store)
    store.outbox.ownerCapacity = 2
    apply(.write(.incr(1)), "ci", on: store)
    apply(.write(.incr(1)), "ci", on: store)
    #expect(store.outbox.fullOwners == ["server"] && store.outbox.waiting(for: "server") == 2)
    let before = store.channel(named: name("ci"))
    #expect(throws: Store.MutationError.ownerOutboxFull(owner: "server", capacity: 2)) {
      try store.apply(.write(.incr(1)), to: name("ci"), now: 0)
    }
    #expect(throws: Store.MutationError.ownerOutboxFull(owner: "server", capacity: 2)) {
      try store.forwardPulse(name("ci"), ms: 100, now: 0)
    }
    let after = store.channel(named: name("ci"))
    #expect(after.count == before.count && after.seq == before.seq && store.outbox.count == 2)
    apply(.write(.incr(1)), "disk", on: store)
    #expect(store.outbox.waiting(for: "nas") == 1 && store.outbox.count == 3)
    _ = store.deliver("laptop:1f:1")
    #expect(store.outbox.fullOwners.isEmpty)
    apply(.write(.incr(1)), "ci", on: store)
    #expect(store.outbox.waiting(for: "server") == 2)
    // Loaded from the files: counted once the mirrors are.
    let loaded = Store()
    loaded.outbox.ownerCapacity = 2
    apply(.mirror(Self.ci), "ci", on: loaded)
    for entry in store.outbox.entries { loaded.restoreForward(entry) }
    loaded.finishRestoringMirrors(since: 0)
    #expect(loaded.outbox.waiting(for: "server") == 2 && loaded.outbox.waiting(for: "nas") == 0)
    #expect(loaded.outbox.fullOwners == ["server"])
  }

  @Test func undoTakesTheOutboxBackWithTheChange() {
    let store = Self.mirrored()
    store.keepsUndo = true
    store.forgetUndo()
    apply(.write(.incr(1)), "ci", on: store)
    _ = store.deliver("laptop:1f:1")
    apply(.write(.incr(1)), "ci", on: store)
    store.undoChanges()
    #expect(store.outbox.count == 0 && store.outbox.nextCounter == 1)
    #expect(store.channel(named: name("ci")).count == 3)
    apply(.write(.incr(1)), "ci", on: store)
    store.forgetUndo()
    _ = store.deliver("laptop:1f:1")
    store.undoChanges()
    #expect(store.outbox.entries.map(\.id) == ["laptop:1f:1"], "a delivery undone puts the write back")
  }

  @Test func forgettingAMirrorForgetsTheChannel() {
    let store = Self.mirrored()
    let forgotten = apply(.forgetMirror, "ci", on: store).channel
    #expect(forgotten.mirror == nil && forgotten.count == 0)
    #expect(store.listed.isEmpty)
  }

  @Test func afterLoadingEveryMirrorIsStaleAndPendingFromTheOutbox() {
    let store = Self.mirrored()
    apply(.write(.incr(1)), "ci", on: store)
    var other = Self.ci
    other.owner = "nas"
    apply(.mirror(other), "disk", on: store)
    apply(.mirrorState(MirrorState(owner: "nas", stale: true, since: 100)), "disk", on: store)
    store.finishRestoringMirrors(since: 500)
    #expect(
      store.channel(named: name("ci")).mirror
        == MirrorState(owner: "server", stale: true, since: 500, pending: true, ownerSeq: 40))
    #expect(store.channel(named: name("disk")).mirror?.since == 100, "stale before: since it was last heard")
  }
}
