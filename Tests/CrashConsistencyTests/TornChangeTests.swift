import BadgeDaemon
import BadgeLog
import BadgePersistence
import BadgeSystem
import Glibc
import Testing

@testable import BadgeCore

/// A change was two journal records, its day of history and then its channel. The power-cut
/// check found that a write cut between them loaded a count without its history; replay
/// applies the two together. Journals now carry the day inside the channel record, so a cut
/// keeps or loses both; the older journals still load as before.
@Suite struct TornChangeTests {
  static let mail = ChannelName("mail")!

  /// Loads `journal` (after the header) with `Recovery.load` into a new store.
  static func load(_ records: [UInt8]) throws -> Store {
    var template = Array("/tmp/badged-torn-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw SystemError("mkdtemp", .current) }
    let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
      FileSystem.remove(folder + "/journal")
      rmdir(folder)
    }
    let file = try AppendOnlyFile(path: folder + "/journal", truncate: true)
    try file.append(RecordFile.header(magic: RecordFile.journalMagic) + records)
    file.close()
    let store = Store()
    let quiet = Logger(level: .emergency, destination: .standardError(priorityPrefix: false))
    try Recovery.load(snapshot: folder + "/snapshot", journal: folder + "/journal", into: store, logger: quiet)
    return store
  }

  static func change(count: Int, seq: UInt64) -> (day: [UInt8], channel: [UInt8]) {
    var day: [UInt8] = []
    var channel: [UInt8] = []
    let entry = HistoryDay(day: 20_000, figures: DayFigures(arrivals: count, peak: count), endCount: count)
    RecordCodec.append(.day(DayRecord(name: mail, entry: entry, seq: seq)), to: &day)
    RecordCodec.append(
      .channel(ChannelRecord(name: mail, count: count, override: SettingsOverride(), seq: seq)), to: &channel)
    return (day, channel)
  }

  @Test func aDayRecordWhoseChannelRecordWasCutIsDropped() throws {
    let first = Self.change(count: 1, seq: 1)
    let second = Self.change(count: 2, seq: 2)
    let store = try Self.load(first.day + first.channel + second.day + second.channel.dropLast(3))
    #expect(store.channel(named: Self.mail).count == 1)
    #expect(store.history.entry(of: Self.mail, on: 20_000)?.figures.arrivals == 1)
  }

  /// Whole changes load with their days, in the order written now (day first) and in the order
  /// of journals written before (channel first).
  @Test(arguments: [true, false]) func wholeChangesLoadWithTheirDays(dayFirst: Bool) throws {
    let changes = [Self.change(count: 1, seq: 1), Self.change(count: 2, seq: 2)]
    let store = try Self.load(changes.flatMap { dayFirst ? $0.day + $0.channel : $0.channel + $0.day })
    #expect(store.channel(named: Self.mail).count == 2)
    #expect(store.history.entry(of: Self.mail, on: 20_000)?.figures.arrivals == 2)
  }

  /// A change as written now: one record, the day inside.
  static func record(count: Int, seq: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    let entry = HistoryDay(day: 20_000, figures: DayFigures(arrivals: count, peak: count), endCount: count)
    RecordCodec.append(
      .channel(ChannelRecord(name: mail, count: count, override: SettingsOverride(), seq: seq, day: entry)), to: &bytes)
    return bytes
  }

  @Test(arguments: [1, 20, 35]) func aRecordWithItsDayCutShortLosesBoth(kept: Int) throws {
    let second = Self.record(count: 2, seq: 2)
    let store = try Self.load(Self.record(count: 1, seq: 1) + second.prefix(kept))
    #expect(store.channel(named: Self.mail).count == 1)
    #expect(store.history.entry(of: Self.mail, on: 20_000)?.figures.arrivals == 1)
    let whole = try Self.load(Self.record(count: 1, seq: 1) + second)
    #expect(whole.channel(named: Self.mail).count == 2)
    #expect(whole.history.entry(of: Self.mail, on: 20_000)?.figures.arrivals == 2)
  }
}
