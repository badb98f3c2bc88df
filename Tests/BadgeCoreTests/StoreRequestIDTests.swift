import Testing

@testable import BadgeCore

/// Request ids in the store: saved with a change or on a number of their own, and taken back
/// with the turn that saved them.
@Suite struct StoreRequestIDTests {
  static let a = RequestID(token: "a", fingerprint: 1)!
  static let b = RequestID(token: "b", fingerprint: 1)!

  @Test func anIdIsSavedWithItsChangeAndTheChangeKeepsItsNumber() {
    let store = Store()
    let outcome = apply(.write(.incr(1)), "mail", on: store)
    store.saveID(ofChange: Self.a)
    #expect(store.seq == 1 && outcome.channel.seq == 1)
    #expect(store.lookup(Self.a) == .repeated)
  }

  @Test func anIdWithNoChangeIsSavedOnANumberOfItsOwn() {
    let store = Store()
    #expect(!apply(.write(.clear(upTo: nil)), "mail", on: store).changed)
    #expect(store.saveID(Self.a) == 1, "the id's own number")
    #expect(store.channel(named: name("mail")).seq == 0)
    #expect(store.lookup(Self.a) == .repeated)
    #expect(apply(.write(.incr(1)), "mail", on: store).channel.seq == 2)
  }

  @Test func undoTakesBackTheIdsAndTheirNumbers() {
    let store = Store(requestIDCapacity: 1)
    store.keepsUndo = true
    apply(.write(.incr(1)), "mail", on: store)
    store.saveID(ofChange: Self.a)
    store.forgetUndo()
    apply(.write(.incr(1)), "mail", on: store)
    store.saveID(ofChange: Self.b)  // forgets a
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
