import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// Records: every field survives a round trip, and the frame protects it.
@Suite struct RecordTests {
  static let overrides: [SettingsOverride] = [
    SettingsOverride(),
    SettingsOverride(muted: true),
    SettingsOverride(muted: false),
    SettingsOverride(maxLabel: 9),
    SettingsOverride(style: .dot),
    SettingsOverride(style: .count, pulseMs: 0),
    SettingsOverride(maxLabel: Limits.maxCount, style: .dot, pulseMs: 3_600_000, muted: true),
    SettingsOverride(badge: .unseen),
    SettingsOverride(badge: .count, dnd: .ignore),
    SettingsOverride(dnd: .obey),
    SettingsOverride(maxLabel: 5, style: .dot, pulseMs: 1, muted: false, badge: .unseen, dnd: .ignore),
    SettingsOverride(step: 1),
    SettingsOverride(step: Limits.maxCount),
    SettingsOverride(maxLabel: 5, style: .dot, pulseMs: 1, muted: true, badge: .unseen, dnd: .ignore, step: 5),
    SettingsOverride(export: "org.example.app"),
    SettingsOverride(style: .dot, step: 3, export: "a"),
  ]

  @Test(arguments: overrides)
  func aChannelRecordRoundTrips(override: SettingsOverride) throws {
    let name = try #require(ChannelName("app:org.telegram.desktop"))
    let record = Record.channel(
      ChannelRecord(name: name, count: Limits.maxCount, override: override, seq: UInt64.max - 1))
    var bytes = RecordFile.journalMagic
    RecordCodec.append(record, to: &bytes)
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records == [record])
    #expect(contents.damage == nil)
    #expect(contents.validLength == bytes.count)
  }

  @Test(arguments: [0, 1, 6, Limits.maxCount])
  func unseenRoundTripsAndCostsNothingWhenAllAreUnseen(unseen: Int) throws {
    let name = try #require(ChannelName("mail"))
    let record = Record.channel(
      ChannelRecord(name: name, count: Limits.maxCount, unseen: unseen, override: SettingsOverride(), seq: 9))
    var bytes = RecordFile.journalMagic
    RecordCodec.append(record, to: &bytes)
    #expect(RecordFile.scan(bytes, magic: RecordFile.journalMagic).records == [record])
    var plain: [UInt8] = []
    RecordCodec.append(.channel(ChannelRecord(name: name, count: 6, override: SettingsOverride(), seq: 9)), to: &plain)
    #expect(plain.count == 8 + 1 + 8 + 1 + 4 + 4 + 1, "all unseen: no unseen field, as records were before it")
  }

  @Test(arguments: [nil, 0, 1_764_500_000_000_000] as [UInt64?])
  func doNotDisturbRoundTrips(until: UInt64?) {
    let record = Record.doNotDisturb(until: until)
    var bytes = RecordFile.journalMagic
    RecordCodec.append(record, to: &bytes)
    #expect(RecordFile.scan(bytes, magic: RecordFile.journalMagic).records == [record])
  }

  @Test func snapshotsKeepDoNotDisturb() throws {
    let name = try #require(ChannelName("mail"))
    let snapshot = Snapshot(
      seq: 4, channels: [ChannelRecord(name: name, count: 3, unseen: 1, override: SettingsOverride(), seq: 4)],
      dndUntil: 0)
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)
    #expect(Snapshot.decode(Snapshot(seq: 1, channels: []).encoded()).snapshot.dndUntil == nil)
  }

  @Test func framesCarryLengthThenChecksumLittleEndian() throws {
    var bytes: [UInt8] = []
    RecordCodec.append(.snapshotEnd(channels: 258), to: &bytes)
    #expect(bytes.count == 8 + 5)
    #expect(Array(bytes[0..<4]) == [5, 0, 0, 0])
    #expect(Array(bytes[8...]) == [3, 2, 1, 0, 0])
    let crc = bytes[8...].withUnsafeBytes { Checksum.crc32($0) }
    #expect(
      Array(bytes[4..<8]) == [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
  }

  @Test func zlibsCRC32IsTheStandardOne() {
    // The check value of CRC-32/ISO-HDLC for "123456789".
    let crc = Array("123456789".utf8).withUnsafeBytes { Checksum.crc32($0) }
    #expect(crc == 0xCBF4_3926)
  }

  @Test func stepIsAnExtensionAfterTheFixedFieldsAndOldRecordsStillLoad() throws {
    let name = try #require(ChannelName("a"))
    // A record as versions before `step` wrote it (dnd set, nothing after it) reads as before.
    let old: [UInt8] = [1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 3, 0, 0, 0, 0x80, 1]
    let record = Record.channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(dnd: .ignore), seq: 7))
    #expect(old.withUnsafeBytes { RecordCodec.decode($0) } == record)
    // Without a step, what is written is byte for byte that old record.
    var written: [UInt8] = []
    RecordCodec.append(record, to: &written)
    #expect(Array(written.dropFirst(8)) == old)
    // With one, a tag (1) and the step follow.
    written = []
    RecordCodec.append(
      .channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(dnd: .ignore, step: 5), seq: 7)),
      to: &written)
    #expect(Array(written.dropFirst(8)) == old + [1, 5, 0, 0, 0])
  }

  @Test func exportIsTheSecondExtensionAndOldRecordsStillLoad() throws {
    let name = try #require(ChannelName("a"))
    // A record as versions before `export` wrote it (a step, nothing after it) reads as before.
    let old: [UInt8] = [1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 3, 0, 0, 0, 0, 1, 5, 0, 0, 0]
    let record = Record.channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(step: 5), seq: 7))
    #expect(old.withUnsafeBytes { RecordCodec.decode($0) } == record)
    var written: [UInt8] = []
    RecordCodec.append(record, to: &written)
    #expect(Array(written.dropFirst(8)) == old)
    // With an export, a tag (2), its length in 16 bits and its bytes follow the step.
    written = []
    let exported = Record.channel(
      ChannelRecord(name: name, count: 3, override: SettingsOverride(step: 5, export: "ab"), seq: 7))
    RecordCodec.append(exported, to: &written)
    #expect(Array(written.dropFirst(8)) == old + [2, 2, 0, 0x61, 0x62])
    #expect(Array(written.dropFirst(8)).withUnsafeBytes { RecordCodec.decode($0) } == exported)
  }

  @Test func payloadsThatMakeNoSenseAreRefused() {
    let bad: [[UInt8]] = [
      [],
      [9],  // unknown kind
      [1, 1, 0, 0, 0, 0, 0, 0, 0],  // channel cut short
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x2F, 0, 0, 0, 0, 0],  // name "/"
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 0xFF, 0xFF, 0xFF, 0xFF, 0],  // count over the maximum
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 2, 7],  // style byte 7
      [3, 1, 0, 0, 0, 9],  // a byte too many
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0],  // step 0
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 1, 5, 0],  // step cut short
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 1, 5, 0, 0, 0, 1, 5, 0, 0, 0],  // step twice
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 9, 5, 0, 0, 0],  // unknown extension
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 2, 0, 0],  // empty export
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 2, 2, 0, 0x61],  // export cut short
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 2, 1],  // export length cut short
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 2, 3, 0, 0x61, 0x3A, 0x62],  // export 'a:b'
      [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 1, 0, 0, 0, 0, 2, 1, 0, 0x61, 2, 1, 0, 0x62],  // export twice
    ]
    for payload in bad {
      #expect(payload.withUnsafeBytes { RecordCodec.decode($0) } == nil, "\(payload)")
    }
  }

  /// The journal writes a change's record from the channel itself; the bytes are those of the
  /// record built from it, for every kind of override, with and without a day of history.
  @Test(arguments: overrides)
  func aChannelIsWrittenAsItsRecordIs(override: SettingsOverride) throws {
    let store = Store()
    let name = try #require(ChannelName("app:org.telegram.desktop"))
    try store.apply(.write(.incr(5)), to: name, now: 0)
    try store.apply(.write(.seen(upTo: nil)), to: name, now: 0)
    try store.apply(.write(.incr(2)), to: name, now: 0)
    let outcome = try store.apply(.configure(set: override, reset: []), to: name, now: 0)
    let day = HistoryDay(day: 20787, figures: DayFigures(arrivals: 300, clears: 1, peak: 7), endCount: 7)
    for day in [nil, day] {
      var direct: [UInt8] = []
      RecordCodec.append(outcome.channel, day: day, id: nil, to: &direct)
      var built: [UInt8] = []
      RecordCodec.append(.channel(ChannelRecord(outcome.channel, day: day)), to: &built)
      #expect(direct == built)
    }
  }

  /// Every setting at once, and the opposite values, in the bytes versions before the
  /// settings' table wrote: flags, then maxLabel, style, pulseMs, unseen, badge and dnd by
  /// their bits (muted inside the flags), then step's and export's tags.
  @Test func settingsAreWrittenAsEarlierVersionsWroteThem() throws {
    let name = try #require(ChannelName("a"))
    let head: [UInt8] = [1, 7, 0, 0, 0, 0, 0, 0, 0, 1, 0x61, 3, 0, 0, 0]
    let all = Record.channel(
      ChannelRecord(
        name: name, count: 3, unseen: 1,
        override: SettingsOverride(
          maxLabel: 5, style: .dot, pulseMs: 1, muted: true, badge: .unseen, dnd: .ignore, step: 5, export: "ab"),
        seq: 7))
    let allBytes = head + [0xFF, 5, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 5, 0, 0, 0, 2, 2, 0, 0x61, 0x62]
    let opposite = Record.channel(
      ChannelRecord(
        name: name, count: 3, override: SettingsOverride(style: .count, muted: false, badge: .count, dnd: .obey), seq: 7
      ))
    let oppositeBytes = head + [0xCA, 0, 0, 0]
    for (record, bytes) in [(all, allBytes), (opposite, oppositeBytes)] {
      var written: [UInt8] = []
      RecordCodec.append(record, to: &written)
      #expect(Array(written.dropFirst(8)) == bytes)
      #expect(bytes.withUnsafeBytes { RecordCodec.decode($0) } == record)
    }
    // muted's value bit without its own bit sets nothing, as before.
    let plain = Record.channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(), seq: 7))
    #expect((head + [0x10]).withUnsafeBytes { RecordCodec.decode($0) } == plain)
  }

  /// Each setting has a place of its own in a channel record: a flags bit that is neither
  /// another's nor unseen's, or a tag that is neither another's nor the day's, the total's or
  /// the request id's.
  @Test func everySettingHasAPlaceOfItsOwn() {
    var bits: [UInt8] = [RecordCodec.unseenBit]
    var tags: [UInt8] = RecordCodec.stateTags
    for key in SettingKey.allCases {
      switch key.record {
      case .fixed(let bit): bits.append(bit)
      case .inFlags(let bit, let valueBit): bits += [bit, valueBit]
      case .tagged(let tag): tags.append(tag)
      }
    }
    #expect(Set(bits).count == bits.count && bits.allSatisfy { $0 < 8 }, "\(bits)")
    #expect(Set(tags).count == tags.count, "\(tags)")
    #expect(RecordCodec.fixedBits == [0, 1, 2, 5, 6, 7])
    // The writer takes the settings in allCases order: the fixed ones by their bits, then the
    // tagged ones.
    let places = SettingKey.allCases.map { key -> Int in
      switch key.record {
      case .fixed(let bit), .inFlags(let bit, _): return Int(bit)
      case .tagged: return 8
      }
    }
    #expect(places == places.sorted(), "\(places)")
  }
}
