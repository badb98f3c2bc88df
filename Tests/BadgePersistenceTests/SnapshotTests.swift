import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// Snapshots: what they keep of a store, and how damage is reported.
@Suite struct SnapshotTests {
  static func store() throws -> Store {
    let store = Store()
    try store.apply(.write(.set(120)), to: #require(ChannelName("mail")), now: 0)
    try store.apply(.write(.mute), to: #require(ChannelName("ci")), now: 0)
    try store.apply(.write(.incr(1)), to: #require(ChannelName("gone")), now: 0)
    try store.apply(.write(.set(0)), to: #require(ChannelName("gone")), now: 0)
    try store.apply(
      .configure(set: SettingsOverride(maxLabel: 9, style: .dot), reset: []), to: #require(ChannelName("app:x")), now: 0
    )
    return store
  }

  @Test func keepsChannelsWithACountOrAnOverrideAndTheSequenceNumber() throws {
    let snapshot = Snapshot(of: try Self.store())
    #expect(snapshot.seq == 5)
    #expect(snapshot.channels.map(\.name.description).sorted() == ["app:x", "ci", "mail"])
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
  }

  @Test func anEmptyStoreHasASnapshotToo() {
    let decoded = Snapshot.decode(Snapshot(of: Store()).encoded())
    #expect(decoded.problem == nil && decoded.snapshot.channels.isEmpty && decoded.snapshot.seq == 0)
  }

  @Test func aSnapshotCutShortLoadsWhatItHasAndSaysSo() throws {
    let bytes = Snapshot(of: try Self.store()).encoded()
    for cut in stride(from: 9, to: bytes.count, by: 3) {
      let decoded = Snapshot.decode(Array(bytes[..<cut]))
      #expect(decoded.problem != nil, "cut at \(cut)")
      #expect(decoded.snapshot.channels.count <= 3)
    }
  }

  @Test func anEmptyOrForeignFileIsAProblem() {
    #expect(Snapshot.decode([]).problem == "it is empty")
    #expect(Snapshot.decode(RecordFile.journalMagic).problem == "it is not a badged snapshot")
  }

  @Test func aDamagedChannelKeepsTheOthersBeforeIt() throws {
    let snapshot = Snapshot(of: try Self.store())
    var bytes = snapshot.encoded()
    // What follows the channel records: the days of history, then the trailer.
    var tail: [UInt8] = []
    for day in snapshot.days { RecordCodec.append(.day(day), to: &tail) }
    RecordCodec.append(.snapshotEnd(channels: snapshot.channels.count, days: snapshot.days.count), to: &tail)
    bytes[bytes.count - tail.count - 7] ^= 0xFF  // inside the last channel record
    let decoded = Snapshot.decode(bytes)
    #expect(decoded.problem?.contains("damage at byte") == true)
    #expect(decoded.snapshot.channels.count == 2)
    #expect(decoded.snapshot.seq == 5)
  }
}
