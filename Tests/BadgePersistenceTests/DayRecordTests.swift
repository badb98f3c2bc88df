import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// Day records of history: they round-trip, refuse nonsense, and snapshots carry them.
@Suite struct DayRecordTests {
  static func record(_ entry: HistoryDay, seq: UInt64 = 7) throws -> Record {
    .day(DayRecord(name: try #require(ChannelName("app:org.telegram.desktop")), entry: entry, seq: seq))
  }

  @Test(arguments: [
    HistoryDay(day: 20787, figures: DayFigures(arrivals: 12, clears: 3, peak: 7), endCount: 2),
    HistoryDay(day: -3, figures: .zero, endCount: 0),
    HistoryDay(
      day: 0, figures: DayFigures(arrivals: Int.max, clears: Int.max, peak: Limits.maxCount), endCount: Limits.maxCount),
  ])
  func aDayRecordRoundTrips(entry: HistoryDay) throws {
    Self.expectRoundTrip(try Self.record(entry, seq: UInt64.max))
  }

  /// Written to a journal and scanned back, `record` reads as written.
  static func expectRoundTrip(_ record: Record) {
    var bytes = RecordFile.journalMagic
    RecordCodec.append(record, to: &bytes)
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records == [record])
    #expect(contents.damage == nil)
  }

  @Test func anEndCountAboveThePeakIsRefused() throws {
    var bytes: [UInt8] = []
    RecordCodec.append(try Self.record(HistoryDay(day: 1, figures: DayFigures(peak: 2), endCount: 3)), to: &bytes)
    #expect(bytes[8...].withUnsafeBytes { RecordCodec.decode($0) } == nil)
  }

  @Test func aTrailerWithoutADayCountStillReads() {
    var old: [UInt8] = []
    RecordCodec.append(.snapshotEnd(channels: 2), to: &old)
    #expect(old.count == 8 + 5, "no history: the trailer as it was before history")
    #expect(old[8...].withUnsafeBytes { RecordCodec.decode($0) } == .snapshotEnd(channels: 2, days: 0))
    var new: [UInt8] = []
    RecordCodec.append(.snapshotEnd(channels: 2, days: 70000), to: &new)
    #expect(new[8...].withUnsafeBytes { RecordCodec.decode($0) } == .snapshotEnd(channels: 2, days: 70000))
  }

  @Test func aSnapshotKeepsEveryDayOfHistoryAndFindsMissingOnes() throws {
    let store = Store()
    store.today = 100
    try store.apply(.write(.incr(3)), to: #require(ChannelName("mail")), now: 0)
    store.today = 101
    try store.apply(.write(.set(0)), to: #require(ChannelName("mail")), now: 0)
    try store.apply(.write(.incr(1)), to: #require(ChannelName("gone")), now: 0)
    try store.apply(.write(.set(0)), to: #require(ChannelName("gone")), now: 0)
    let snapshot = Snapshot(of: store)
    #expect(snapshot.days.map { "\($0.name) \($0.entry.day)" } == ["gone 101", "mail 100", "mail 101"])
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)

    var short = snapshot
    short.days.removeLast()
    var bytes = RecordFile.header(magic: RecordFile.snapshotMagic)
    RecordCodec.append(.snapshotStart(seq: short.seq), to: &bytes)
    for day in short.days { RecordCodec.append(.day(day), to: &bytes) }
    RecordCodec.append(.snapshotEnd(channels: 0, days: 3), to: &bytes)
    #expect(Snapshot.decode(bytes).problem == "it ends after 2 of 3 days of history")
  }
  // MARK: - A change's day inside its channel record (the journal since the day extension)

  static let days = [
    HistoryDay(day: 20787, figures: DayFigures(arrivals: 12, clears: 3, peak: 7), endCount: 2),
    HistoryDay(day: -3, figures: .zero, endCount: 0),
    HistoryDay(day: 127, figures: DayFigures(arrivals: 128, clears: 16_383, peak: 16_384), endCount: 16_384),
    HistoryDay(
      day: 0, figures: DayFigures(arrivals: Int.max, clears: Int.max, peak: Limits.maxCount), endCount: Limits.maxCount),
  ]

  @Test(arguments: days)
  func aChannelRecordCarriesItsDayAcrossARoundTrip(entry: HistoryDay) throws {
    let name = try #require(ChannelName("app:org.telegram.desktop"))
    Self.expectRoundTrip(
      .channel(
        ChannelRecord(
          name: name, count: entry.endCount, override: SettingsOverride(style: .dot, step: 2), seq: 9, day: entry)))
  }

  @Test func aChangeCostsTheJournalThirtySixBytesWhereItTookSeventySeven() throws {
    let name = try #require(ChannelName("mail"))
    let entry = HistoryDay(day: 20787, figures: DayFigures(arrivals: 3, clears: 0, peak: 3), endCount: 3)
    var combined: [UInt8] = []
    RecordCodec.append(
      .channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(), seq: 5, day: entry)), to: &combined)
    // The frame (8), kind, seq, name, count, flags (19), then the day: tag, day, four varints.
    #expect(combined.count == 8 + 19 + 1 + 4 + 4)
    #expect(Array(combined[27...]) == [3, 0x33, 0x51, 0, 0, 3, 0, 3, 3])
    var separate: [UInt8] = []
    RecordCodec.append(.day(DayRecord(name: name, entry: entry, seq: 5)), to: &separate)
    RecordCodec.append(
      .channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(), seq: 5)), to: &separate)
    #expect(separate.count == 77, "a day record of its own, as journals were written before")
  }

  @Test(
    arguments: [
      ([0x80], "a varint cut short"),
      ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02], "past 64 bits"),
      ([0x02, 0x05], "an end count above the peak"),
    ] as [([UInt8], String)])
  func aDayExtensionThatMakesNoSenseIsRefused(tail: [UInt8], why: String) throws {
    let name = try #require(ChannelName("mail"))
    var bytes: [UInt8] = []
    RecordCodec.append(.channel(ChannelRecord(name: name, count: 3, override: SettingsOverride(), seq: 5)), to: &bytes)
    // Day 1, arrivals 1, clears 0, then the peak and end count: here the tail under test.
    let start = Array(bytes[8...]) + [3, 1, 0, 0, 0, 1, 0]
    let whole = start + [2, 1]
    #expect(whole.withUnsafeBytes { RecordCodec.decode($0) } != nil, "the same record with a sound tail reads")
    let payload = start + tail
    #expect(payload.withUnsafeBytes { RecordCodec.decode($0) } == nil, "\(why)")
  }

  @Test func aSecondDayInOneRecordIsRefused() throws {
    let name = try #require(ChannelName("mail"))
    let entry = HistoryDay(day: 1, figures: DayFigures(arrivals: 1, clears: 0, peak: 1), endCount: 1)
    var bytes: [UInt8] = []
    RecordCodec.append(
      .channel(ChannelRecord(name: name, count: 1, override: SettingsOverride(), seq: 5, day: entry)), to: &bytes)
    let payload = Array(bytes[8...]) + Array(bytes[(bytes.count - 9)...])
    #expect(payload.withUnsafeBytes { RecordCodec.decode($0) } == nil)
  }
}
