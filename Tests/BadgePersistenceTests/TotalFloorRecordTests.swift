import BadgeConfig
import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// The store's total floor in the snapshot: tag 9 of its start record, written only above 0,
/// so snapshots written before it read as 0.
@Suite struct TotalFloorRecordTests {
  static func payload(_ record: Record) -> [UInt8] { TotalAndIDRecordTests.payload(record) }

  static func decode(_ payload: [UInt8]) -> Record? { payload.withUnsafeBytes { RecordCodec.decode($0) } }

  /// A start record of seq 4, as every snapshot before floors began.
  static let start: [UInt8] = [2, 4, 0, 0, 0, 0, 0, 0, 0]

  @Test func theFloorIsTagNineOfTheStartRecordAsAVarint() {
    #expect(Self.payload(.snapshotStart(seq: 4, totalFloor: 300)) == Self.start + [9, 0xAC, 0x02])
    #expect(Self.decode(Self.start + [9, 0xAC, 0x02]) == .snapshotStart(seq: 4, totalFloor: 300))
    // At 0 nothing is written: the record is byte for byte one from before floors, which
    // reads as 0.
    #expect(Self.payload(.snapshotStart(seq: 4)) == Self.start)
    #expect(Self.decode(Self.start) == .snapshotStart(seq: 4, totalFloor: 0))
  }

  @Test(arguments: [
    [9, 0] as [UInt8],  // a floor of 0 is never written
    [9],  // cut short
    [9, 0x80],  // a varint cut short
    [4, 3],  // another tag
    [9, 3, 9, 3],  // twice
  ])
  func aStartRecordWithAnythingElseAfterItsSeqIsDamage(tail: [UInt8]) {
    #expect(Self.decode(Self.start + tail) == nil)
  }

  @Test func aSnapshotKeepsTheFloorAndOneWithoutItReadsAsZero() throws {
    let store = Store()
    let mail = try #require(ChannelName("mail"))
    try store.apply(.write(.incr(40)), to: mail, now: 0)
    try store.apply(.write(.clear(upTo: nil)), to: mail, now: 0)
    try store.apply(.write(.incr(2)), to: #require(ChannelName("chat")), now: 0)
    let snapshot = Snapshot(of: store)
    #expect(snapshot.totalFloor == 40)
    #expect(snapshot.channels.map { "\($0.name)=\($0.count)/\($0.total)" } == ["chat=2/42"])
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
    // A snapshot of a store that never forgot a channel is what it was before floors.
    var old = snapshot
    old.totalFloor = 0
    #expect(Snapshot.decode(old.encoded()).snapshot == old)
    #expect(old.encoded().count == snapshot.encoded().count - 2, "the tag and a byte of varint")
  }

  /// A channel a config section keeps at total 0 is in the snapshot once the floor is above
  /// it: loading lifts a channel the snapshot does not hold to the floor.
  @Test func aConfiguredChannelBelowTheFloorIsKept() throws {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: ChannelPattern("ci")!, override: SettingsOverride(), line: 1)]
    let store = Store(config: config.channels)
    #expect(Snapshot(of: store).channels.isEmpty, "at 0 with the floor at 0 it reads as made anew")
    let mail = try #require(ChannelName("mail"))
    try store.apply(.write(.incr(5)), to: mail, now: 0)
    try store.apply(.write(.clear(upTo: nil)), to: mail, now: 0)
    let snapshot = Snapshot(of: store)
    #expect(snapshot.channels.map { "\($0.name)=\($0.count)/\($0.total)" } == ["ci=0/0"])
    let loaded = Store(config: config.channels)
    loaded.restoreTotalFloor(atLeast: snapshot.totalFloor)
    for channel in snapshot.channels {
      loaded.restore(
        name: channel.name, count: channel.count, unseen: channel.unseen, total: channel.total,
        override: channel.override, seq: channel.seq)
    }
    #expect(Snapshot(of: loaded).channels == snapshot.channels)
    #expect(loaded.totalFloor == 5)
    #expect(loaded.channel(named: ChannelName("ci")!).total == 0)
  }
}
