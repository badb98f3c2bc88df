import BadgeConfig
import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// The running total and request ids in records: their bytes, and files written before them
/// loading as they did.
@Suite struct TotalAndIDRecordTests {
  static let name = ChannelName("a")!
  /// The bytes of a channel record for `a` (count 3, seq 7, no settings) before any extension.
  static let head: [UInt8] = [1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 3, 0, 0, 0, 0]
  static let id = RequestID(high: 0x0102_0304_0506_0708, low: 0x1112_1314_1516_1718, fingerprint: 0x2122_2324_2526_2728)
  static let idBytes: [UInt8] = [
    8, 7, 6, 5, 4, 3, 2, 1, 0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,
    0x28, 0x27, 0x26, 0x25, 0x24, 0x23, 0x22, 0x21,
  ]

  static func payload(_ record: Record) -> [UInt8] {
    var bytes: [UInt8] = []
    RecordCodec.append(record, to: &bytes)
    return Array(bytes.dropFirst(8))
  }

  @Test func aTotalIsTagFourAsAVarintWhenItIsNotTheCount() {
    let record = Record.channel(
      ChannelRecord(name: Self.name, count: 3, total: 300, override: SettingsOverride(), seq: 7))
    #expect(Self.payload(record) == Self.head + [4, 0xAC, 0x02])
    #expect((Self.head + [4, 0xAC, 0x02]).withUnsafeBytes { RecordCodec.decode($0) } == record)
    // At the count, nothing is written: the record is byte for byte one from before totals,
    // and such a record reads as its count.
    let atCount = Record.channel(
      ChannelRecord(name: Self.name, count: 3, total: 3, override: SettingsOverride(), seq: 7))
    #expect(Self.payload(atCount) == Self.head)
    guard case .channel(let old) = Self.head.withUnsafeBytes({ RecordCodec.decode($0) }) else {
      Issue.record("an old record must load")
      return
    }
    #expect(old.total == 3)
  }

  @Test func anIdIsTagFiveAfterTheTotal() {
    let record = Record.channel(
      ChannelRecord(name: Self.name, count: 3, total: 5, override: SettingsOverride(), seq: 7, id: Self.id))
    let bytes = Self.head + [4, 5, 5] + Self.idBytes
    #expect(Self.payload(record) == bytes)
    #expect(bytes.withUnsafeBytes { RecordCodec.decode($0) } == record)
  }

  @Test func anIdOfItsOwnIsKindSixWithItsNumber() {
    let record = Record.requestID(SavedRequestID(seq: 9, id: Self.id))
    let bytes: [UInt8] = [6, 9, 0, 0, 0, 0, 0, 0, 0] + Self.idBytes
    #expect(Self.payload(record) == bytes)
    #expect(bytes.withUnsafeBytes { RecordCodec.decode($0) } == record)
  }

  @Test func doNotDisturbCarriesItsIdAfterItsFieldsAndOldRecordsStillLoad() {
    let old: [UInt8] = [5, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    #expect(old.withUnsafeBytes { RecordCodec.decode($0) } == .doNotDisturb(until: 0))
    #expect(Self.payload(.doNotDisturb(until: 0)) == old)
    let record = Record.doNotDisturb(until: 0, id: SavedRequestID(seq: 4, id: Self.id))
    let bytes = old + [5, 4, 0, 0, 0, 0, 0, 0, 0] + Self.idBytes
    #expect(Self.payload(record) == bytes)
    #expect(bytes.withUnsafeBytes { RecordCodec.decode($0) } == record)
  }

  @Test func badTotalsAndIdsAreDamage() {
    let bad: [[UInt8]] = [
      Self.head + [4, 3],  // a total at the count is never written
      Self.head + [4, 2],  // below the count
      Self.head + [4, 0x85],  // cut short
      Self.head + [4, 9, 4, 9],  // twice
      Self.head + [5] + Self.idBytes.dropLast(),  // an id cut short
      Self.head + [5] + Self.idBytes + [5] + Self.idBytes,  // twice
      [6, 9, 0, 0, 0, 0, 0, 0, 0] + Self.idBytes.dropLast(),
      [5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9],  // do-not-disturb with an unknown tag
      [5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 0, 0, 0, 0, 0, 0, 0],  // its id cut short
    ]
    for payload in bad {
      #expect(payload.withUnsafeBytes { RecordCodec.decode($0) } == nil, "\(payload)")
    }
  }

  @Test func snapshotsKeepIdsOldestFirstAndCountThemInTheTrailer() {
    let ids = (0..<3).map { RequestID(token: "t\($0)", fingerprint: UInt64($0))! }
    let snapshot = Snapshot(
      seq: 4, channels: [ChannelRecord(name: Self.name, count: 1, total: 6, override: SettingsOverride(), seq: 4)],
      requestIDs: ids)
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
    // The trailer: channels, days (0) and ids; without ids it is as before ids.
    #expect(Self.payload(.snapshotEnd(channels: 1, days: 0, ids: 3)) == [3, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0])
    #expect(Self.payload(.snapshotEnd(channels: 1, days: 2)) == [3, 1, 0, 0, 0, 2, 0, 0, 0])
    #expect(Self.payload(.snapshotEnd(channels: 1)) == [3, 1, 0, 0, 0])
    // A snapshot cut before its last id says so.
    var bytes = RecordFile.header(magic: RecordFile.snapshotMagic)
    RecordCodec.append(.snapshotStart(seq: 4), to: &bytes)
    for channel in snapshot.channels { RecordCodec.append(.channel(channel), to: &bytes) }
    for id in ids.dropLast() { RecordCodec.append(.requestID(SavedRequestID(seq: 0, id: id)), to: &bytes) }
    RecordCodec.append(.snapshotEnd(channels: 1, days: 0, ids: 3), to: &bytes)
    #expect(Snapshot.decode(bytes).problem == "it ends after 2 of 3 request ids")
  }

  /// The store's snapshot keeps a channel that only a config section keeps, for its total.
  @Test func aStoresSnapshotKeepsTotalsAndIds() throws {
    var config = DaemonConfig()
    config.sections = [ChannelSection(pattern: ChannelPattern("ci")!, override: SettingsOverride(step: 2), line: 1)]
    let store = Store(config: config.channels)
    try store.apply(.write(.incr(4)), to: ChannelName("ci")!, now: 0)
    store.saveID(ofChange: Self.id)
    try store.apply(.write(.clear(upTo: nil)), to: ChannelName("ci")!, now: 0)
    let snapshot = Snapshot(of: store)
    #expect(snapshot.channels.map(\.total) == [4])
    #expect(snapshot.requestIDs == [Self.id])
    let loaded = Store(config: config.channels)
    for channel in snapshot.channels {
      loaded.restore(
        name: channel.name, count: channel.count, unseen: channel.unseen, total: channel.total,
        override: channel.override, seq: channel.seq)
    }
    #expect(loaded.channel(named: ChannelName("ci")!).total == 4)
  }
}
