@testable import BadgeCore
import Testing

/// Request ids in the store: saved with a change or on a number of their own, and taken back
/// with the turn that saved them.
@Suite struct StoreRequestIDTests {
  static let a = RequestID(token: "a", fingerprint: 1)!
  static let b = RequestID(token: "b", fingerprint: 1)!

  @Test func anIdIsSavedWithItsChangeAndTheChangeKeepsItsNumber() throws {
    let store = Store()
    let outcome = try store.apply(.increment(1), to: name("mail"), now: 0, id: Self.a)
    #expect(outcome.changed && outcome.id == Self.a)
    #expect(store.seq == 1 && outcome.channel.seq == 1)
    #expect(store.lookup(Self.a) == .repeated)
  }

  @Test func anIdWithNoChangeIsSavedOnANumberOfItsOwn() throws {
    let store = Store()
    let outcome = try store.apply(.clear(upTo: .max), to: name("mail"), now: 0, id: Self.a)
    #expect(!outcome.changed && outcome.id == Self.a)
    #expect(store.seq == 1, "the id's own number")
    #expect(store.channel(named: name("mail")).seq == 0)
    #expect(store.lookup(Self.a) == .repeated)
    #expect(apply(.increment(1), "mail", on: store).channel.seq == 2)
  }

  @Test func aRefusedChangeSavesNoId() {
    let store = Store()
    apply(.set(Limits.maxCount), "mail", on: store)
    #expect(throws: Store.MutationError.countOutOfRange(current: Limits.maxCount)) {
      try store.apply(.increment(1), to: name("mail"), now: 0, id: Self.a)
    }
    #expect(store.lookup(Self.a) == .unknown && store.seq == 1)
  }

  @Test func undoTakesBackTheIdsAndTheirNumbers() throws {
    let store = Store(requestIDCapacity: 1)
    store.keepsUndo = true
    try store.apply(.increment(1), to: name("mail"), now: 0, id: Self.a)
    store.forgetUndo()
    try store.apply(.increment(1), to: name("mail"), now: 0, id: Self.b)  // forgets a
    store.saveID(RequestID(token: "c", fingerprint: 1)!)
    #expect(store.lookup(Self.a) == .unknown && store.seq == 3)
    #expect(store.hasUndo)
    store.undoChanges()
    #expect(store.lookup(Self.a) == .repeated, "the id the turn pushed out is back")
    #expect(store.lookup(Self.b) == .unknown)
    #expect(store.requestIDs.inOrder == [Self.a])
    #expect(store.seq == 1)
    #expect(store.channel(named: name("mail")).count == 1)
  }

  @Test func restoringAnIdTwiceKeepsOne() {
    let store = Store()
    store.restoreID(Self.a)
    store.restoreID(Self.b)
    store.restoreID(Self.a)
    #expect(store.requestIDs.inOrder == [Self.a, Self.b])
  }
}
