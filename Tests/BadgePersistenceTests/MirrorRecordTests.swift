import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// Mirrored channels, the forward outbox and do-not-disturb's stamp in records: their exact
/// bytes, damage refused, and records written before them loading as they did.
@Suite struct MirrorRecordTests {
  static let name = ChannelName("a")!
  static let head = TotalAndIDRecordTests.head

  static func payload(_ record: Record) -> [UInt8] { TotalAndIDRecordTests.payload(record) }

  static func decode(_ payload: [UInt8]) -> Record? { payload.withUnsafeBytes { RecordCodec.decode($0) } }

  @Test func aMirrorIsTagSixWithItsOwnerStalenessAndOwnersSeq() {
    let mirror = MirrorState(owner: "srv", stale: true, since: 300, pending: true, ownerSeq: 5)
    let record = Record.channel(
      ChannelRecord(name: Self.name, count: 3, override: SettingsOverride(), seq: 7, mirror: mirror))
    let bytes = Self.head + [6, 3, 0x73, 0x72, 0x76, 1, 0xAC, 0x02, 5]
    #expect(Self.payload(record) == bytes)
    // `pending` is not kept: it is derived from the outbox when loading.
    guard case .channel(let read) = Self.decode(bytes) else {
      Issue.record("a mirror record must load")
      return
    }
    #expect(read.mirror == MirrorState(owner: "srv", stale: true, since: 300, pending: false, ownerSeq: 5))
    // A channel that is not mirrored writes nothing more: records from before read the same.
    guard case .channel(let local) = Self.decode(Self.head) else {
      Issue.record("an old record must load")
      return
    }
    #expect(local.mirror == nil)
  }

  @Test func aDamagedMirrorIsRefused() {
    // An owner that is no host name, a flags byte other than 0 and 1, the tag twice, a cut.
    #expect(Self.decode(Self.head + [6, 1, 0x20, 0, 0, 0]) == nil)
    #expect(Self.decode(Self.head + [6, 1, 0x73, 2, 0, 0]) == nil)
    #expect(Self.decode(Self.head + [6, 1, 0x73, 0, 0, 0, 6, 1, 0x73, 0, 0, 0]) == nil)
    #expect(Self.decode(Self.head + [6, 1, 0x73, 0, 0]) == nil)
    #expect(Self.decode(Self.head + [6, 0, 0, 0, 0]) == nil)
  }

  @Test func aForwardedWriteHasItsSeqCounterChannelIdAndLine() {
    let entry = ForwardEntry(id: "h:1f:2", counter: 2, channel: Self.name, write: .incr(1), seq: 9)
    let bytes: [UInt8] =
      [7, 9, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 6] + Array("h:1f:2".utf8) + [18, 0]
      + Array("INCR a 1 id=h:1f:2".utf8)
    #expect(Self.payload(.forward(entry)) == bytes)
    #expect(Self.decode(bytes) == .forward(entry))
    #expect(Self.decode(Array(bytes.dropLast())) == nil, "a line cut short")
    #expect(Self.decode(Array(bytes.prefix(20)) + [0, 0]) == nil, "an empty id")
  }

  /// The line is read back with the protocol's parser: a write to the record's channel, with
  /// the entry's id when it takes one (a `PULSE` takes none); any other line is damage.
  @Test func aForwardedWritesLineIsReadAsTheRequestItIs() {
    func record(_ line: String, id: String = "h:1f:2") -> [UInt8] {
      [7, 9, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, UInt8(id.utf8.count)] + Array(id.utf8)
        + [UInt8(line.utf8.count), 0] + Array(line.utf8)
    }
    let pulse = ForwardEntry(id: "h:1f:2", counter: 2, channel: Self.name, write: .pulse(ms: nil), seq: 9)
    #expect(Self.payload(.forward(pulse)) == record("PULSE a"))
    #expect(Self.decode(record("PULSE a")) == .forward(pulse))
    let clear = ForwardEntry(id: "h:1f:2", counter: 2, channel: Self.name, write: .clear(upTo: 4), seq: 9)
    #expect(Self.decode(record("clear  a upto=4 id=h:1f:2")) == .forward(clear), "read as the parser reads")
    for line in [
      "INCR b 1 id=h:1f:2", "INCR a 1", "INCR a 1 id=h:1f:3", "PULSE a id=h:1f:2", "GET a", "CLEAR * id=h:1f:2",
      "INCR a 0 id=h:1f:2", "EXPLODE a",
    ] {
      #expect(Self.decode(record(line)) == nil, "\(line)")
    }
  }

  /// In the journal a forwarded write rides in its change's record, so a power cut keeps or
  /// loses the two together.
  @Test func aForwardedWriteRidesInItsChangesRecordAsTagEight() {
    let entry = ForwardEntry(id: "h:1f:2", counter: 2, channel: Self.name, write: .incr(1), seq: 7)
    let record = Record.channel(
      ChannelRecord(name: Self.name, count: 3, override: SettingsOverride(), seq: 7, forward: entry))
    let tail: [UInt8] =
      [8, 2, 0, 0, 0, 0, 0, 0, 0, 6] + Array("h:1f:2".utf8) + [18, 0] + Array("INCR a 1 id=h:1f:2".utf8)
    #expect(Self.payload(record) == Self.head + tail)
    #expect(Self.decode(Self.head + tail) == record)
    #expect(Self.decode(Self.head + tail + tail) == nil, "the tag twice")
    #expect(Self.decode(Self.head + Array(tail.dropLast())) == nil, "cut short")
    #expect(Self.decode(Self.head + Array(tail.prefix(10)) + [0, 0]) == nil, "an empty line")
  }

  @Test func aDeliveryAndTheOutboxsNumbering() {
    #expect(Self.payload(.delivered(id: "h:1f:2")) == [8, 6] + Array("h:1f:2".utf8))
    #expect(Self.decode([8, 6] + Array("h:1f:2".utf8)) == .delivered(id: "h:1f:2"))
    #expect(Self.decode([8, 2, 0x20, 0x20]) == nil, "an id with a space")
    let numbering: [UInt8] = [9, 0x1F, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]
    #expect(Self.payload(.forwardIDs(epoch: 0x1F, next: 3)) == numbering)
    #expect(Self.decode(numbering) == .forwardIDs(epoch: 0x1F, next: 3))
  }

  @Test func doNotDisturbsStampIsTagSevenAfterTheId() {
    let stamp = DNDStamp(at: 1000, host: "d", remote: true)
    let bytes: [UInt8] = [5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0xE8, 0x03, 0, 0, 0, 0, 0, 0, 1, 1, 0x64]
    #expect(Self.payload(.doNotDisturb(until: nil, stamp: stamp)) == bytes)
    #expect(Self.decode(bytes) == .doNotDisturb(until: nil, stamp: stamp))
    let saved = SavedRequestID(seq: 4, id: TotalAndIDRecordTests.id)
    let withID = Record.doNotDisturb(until: 0, id: saved, stamp: stamp)
    #expect(Self.decode(Self.payload(withID)) == withID)
    // The stamp before the id is not how it is written: refused, as a repeated tag is.
    #expect(Self.decode(bytes + [5] + Array(repeating: 0, count: 32)) == nil)
    #expect(Self.decode(bytes + Array(bytes[10...])) == nil)
  }

  @Test func theTrailerCountsForwardedWritesFourth() {
    #expect(
      Self.payload(.snapshotEnd(channels: 1, forwards: 2)) == [3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0])
    #expect(Self.decode([3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]) == .snapshotEnd(channels: 1, forwards: 2))
    #expect(Self.payload(.snapshotEnd(channels: 1, days: 2)) == [3, 1, 0, 0, 0, 2, 0, 0, 0], "as before")
  }

  /// A journal's forwarded writes move the counter before the folder's epoch is drawn: the
  /// snapshot of that state keeps the counter too, so that it saves as itself.
  @Test func aCounterMovedBeforeAnEpochIsKept() {
    let snapshot = Snapshot(seq: 3, channels: [], forwardEpoch: 0, forwardNext: 2)
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
    #expect(Snapshot(seq: 3, channels: []).encoded().count < snapshot.encoded().count)
  }

  @Test func aSnapshotKeepsMirrorsTheOutboxItsNumberingAndTheStamp() {
    let entry = ForwardEntry(id: "h:1f:2", counter: 2, channel: Self.name, write: .clear(upTo: 4), seq: 0)
    let snapshot = Snapshot(
      seq: 9,
      channels: [
        ChannelRecord(
          name: Self.name, count: 1, total: 4, override: SettingsOverride(), seq: 9,
          mirror: MirrorState(owner: "srv", ownerSeq: 40))
      ],
      dndStamp: DNDStamp(at: 5, host: "d"), forwards: [entry], forwardEpoch: 0x1F, forwardNext: 3)
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
    // Cut before the forwarded write: the trailer's count tells.
    let whole = Snapshot(seq: 9, channels: [], forwards: [entry], forwardEpoch: 0x1F, forwardNext: 3).encoded()
    var record: [UInt8] = []
    RecordCodec.append(.forward(entry), to: &record)
    guard
      let start = (0...(whole.count - record.count)).first(where: { Array(whole[$0..<$0 + record.count]) == record })
    else {
      Issue.record("the snapshot holds the forwarded write's record")
      return
    }
    var cut = whole
    cut.removeSubrange(start..<start + record.count)
    #expect(Snapshot.decode(cut).problem == "it ends after 0 of 1 forwarded writes")
  }
}
