/// What the store needs to take back its changes since they were last saved: each touched
/// channel as it was before a change, with its history entry of the day the change was counted
/// on; each request id saved, with the one it pushed out of the table; `seq` before the first
/// change; do-not-disturb before its first change; the store's `totalFloor` before its first
/// rise. The one record of everything a change alters, so that undoing restores it
/// (`Store.undoChanges`).
///
/// Kept only while `isOn`: the daemon turns it on, since the disk may refuse a turn's changes;
/// a store nothing is saved from keeps nothing.
struct UndoLog {
  /// One change: the channel called `name` as it was before it (`nil`: never written), and its
  /// history entry of `day` before it.
  struct Entry {
    let name: ChannelName
    let before: Channel?
    let day: Int
    let history: History.EntryBefore
  }

  var isOn = false
  /// The changes since the last `forget()`, oldest first.
  private(set) var entries: [Entry] = []
  /// For each request id saved since the last `forget()`, oldest first, the id the table forgot
  /// to make room for it (`nil`: none).
  private(set) var forgottenIDs: [RequestID?] = []
  /// `seq` before the first change in `entries` or the first id saved.
  private(set) var seqBefore: UInt64 = 0
  /// Do-not-disturb before its first change since the last `forget()`, if it changed.
  private(set) var dndBefore: DoNotDisturb?
  /// The store's `totalFloor` before its first rise since the last `forget()`, if it rose (a
  /// change forgot a channel): it rises only with a change of a channel, so `isEmpty` need not
  /// ask.
  private(set) var totalFloorBefore: Int?
  /// What only sharing with other machines changes, as it was before its first change: kept in
  /// one reference, empty for the changes of local channels, so that the log every change
  /// goes through stays as small as it was.
  private final class Shared {
    /// Do-not-disturb's stamp, with `dndBefore`.
    var dndStamp: DNDStamp?
    /// The forward outbox, if it changed.
    var outbox: ForwardOutbox?
  }
  private var shared: Shared?

  /// Do-not-disturb's stamp before its first change, with `dndBefore`.
  var dndStampBefore: DNDStamp? { shared?.dndStamp }
  /// The forward outbox before its first change since the last `forget()`, if it changed.
  var outboxBefore: ForwardOutbox? { shared?.outbox }

  private mutating func sharedBefore() -> Shared {
    if let shared { return shared }
    let made = Shared()
    shared = made
    return made
  }

  /// Whether nothing changed since the last `forget()`.
  @inline(__always) var isEmpty: Bool { entries.isEmpty && forgottenIDs.isEmpty && dndBefore == nil && shared == nil }

  /// Whether `seq` moved since the last `forget()`: a change, or an id saved.
  var movedSeq: Bool { !entries.isEmpty || !forgottenIDs.isEmpty }

  /// Keeps how to undo a channel's change made when the store's `seq` was `seq`.
  @inline(__always)
  mutating func changed(
    _ name: ChannelName, before: @autoclosure () -> Channel?, day: Int, history: History.EntryBefore, seq: UInt64
  ) {
    guard isOn else { return }
    if !movedSeq { seqBefore = seq }
    entries.append(Entry(name: name, before: before(), day: day, history: history))
  }

  /// Keeps how to undo saving a request id when the store's `seq` was `seq`: the id the table
  /// forgot for it goes back.
  mutating func saved(_ id: RequestID, forgetting forgotten: RequestID?, seq: UInt64) {
    guard isOn else { return }
    if !movedSeq { seqBefore = seq }
    forgottenIDs.append(forgotten)
  }

  /// Keeps do-not-disturb as it is before a change, unless it changed already since the last
  /// `forget()`.
  mutating func dndChanging(from dnd: DoNotDisturb, stamp: DNDStamp?) {
    if isOn && dndBefore == nil {
      dndBefore = dnd
      if stamp != nil { sharedBefore().dndStamp = stamp }
    }
  }

  /// Keeps the store's `totalFloor` as it is before it rises, unless it rose already since the
  /// last `forget()`.
  mutating func totalFloorRaising(from floor: Int) {
    if isOn && totalFloorBefore == nil { totalFloorBefore = floor }
  }

  /// A rise of the store's `totalFloor` that is not undone (a reload forgot a channel whose
  /// total was `total`): taking the changes back keeps it.
  mutating func totalFloorKept(past total: Int) {
    if let before = totalFloorBefore { totalFloorBefore = max(before, total) }
  }

  /// Keeps the forward outbox as it is before a change, unless it changed already since the
  /// last `forget()`.
  mutating func outboxChanging(from outbox: ForwardOutbox) {
    if isOn && shared?.outbox == nil { sharedBefore().outbox = outbox }
  }

  /// The changes so far are saved: they will never be undone. The room for entries is kept
  /// (up to a cap), since every turn fills it again.
  mutating func forget() {
    entries.removeAll(keepingCapacity: entries.capacity <= 4096)
    forgottenIDs.removeAll(keepingCapacity: forgottenIDs.capacity <= 4096)
    dndBefore = nil
    totalFloorBefore = nil
    shared = nil
  }
}
