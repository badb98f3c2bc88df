import BadgeCore
import Testing

@testable import BadgePersistence

/// Day records of history: they round-trip, refuse nonsense, and snapshots carry them.
@Suite struct DayRecordTests {
  static func record(_ entry: HistoryDay, seq: UInt64 = 7) throws -> Record {
    .day(DayRecord(name: try #require(ChannelName("app:org.telegram.desktop")), entry: entry, seq: seq))
  }

  @Test(arguments: [
    HistoryDay(day: 20787, figures: DayFigures(arrivals: 12, clears: 3, peak: 7), endCount: 2),
    HistoryDay(day: -3, figures: .zero, endCount: 0),
    HistoryDay(day: 0, figures: DayFigures(arrivals: Int.max, clears: Int.max, peak: Limits.maxCount), endCount: Limits.maxCount),
  ])
  func aDayRecordRoundTrips(entry: HistoryDay) throws {
    let record = try Self.record(entry, seq: UInt64.max)
    var bytes = RecordFile.journalMagic
    RecordEncoder.append(record, to: &bytes)
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records == [record])
    #expect(contents.damage == nil)
  }

  @Test func anEndCountAboveThePeakIsRefused() throws {
    var bytes: [UInt8] = []
    RecordEncoder.append(try Self.record(HistoryDay(day: 1, figures: DayFigures(peak: 2), endCount: 3)), to: &bytes)
    #expect(bytes[8...].withUnsafeBytes { RecordEncoder.decode($0) } == nil)
  }

  @Test func aTrailerWithoutADayCountStillReads() {
    var old: [UInt8] = []
    RecordEncoder.append(.snapshotEnd(channels: 2), to: &old)
    #expect(old.count == 8 + 5, "no history: the trailer as it was before history")
    #expect(old[8...].withUnsafeBytes { RecordEncoder.decode($0) } == .snapshotEnd(channels: 2, days: 0))
    var new: [UInt8] = []
    RecordEncoder.append(.snapshotEnd(channels: 2, days: 70000), to: &new)
    #expect(new[8...].withUnsafeBytes { RecordEncoder.decode($0) } == .snapshotEnd(channels: 2, days: 70000))
  }

  @Test func aSnapshotKeepsEveryDayOfHistoryAndFindsMissingOnes() throws {
    let store = Store()
    store.today = 100
    try store.apply(.increment(3), to: #require(ChannelName("mail")), now: 0)
    store.today = 101
    try store.apply(.set(0), to: #require(ChannelName("mail")), now: 0)
    try store.apply(.increment(1), to: #require(ChannelName("gone")), now: 0)
    try store.apply(.set(0), to: #require(ChannelName("gone")), now: 0)
    let snapshot = Snapshot(of: store)
    #expect(snapshot.days.map { "\($0.name) \($0.entry.day)" } == ["gone 101", "mail 100", "mail 101"])
    let decoded = Snapshot.decode(snapshot.encoded())
    #expect(decoded.problem == nil)
    #expect(decoded.snapshot == snapshot)

    var short = snapshot
    short.days.removeLast()
    var bytes = RecordFile.header(magic: RecordFile.snapshotMagic)
    RecordEncoder.append(.snapshotStart(seq: short.seq), to: &bytes)
    for day in short.days { RecordEncoder.append(.day(day), to: &bytes) }
    RecordEncoder.append(.snapshotEnd(channels: 0, days: 3), to: &bytes)
    #expect(Snapshot.decode(bytes).problem == "it ends after 2 of 3 days of history")
  }
}
