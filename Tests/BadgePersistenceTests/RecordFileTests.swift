import TestSupport
import Testing

@testable import BadgeCore
@testable import BadgePersistence

/// Scanning files: where the good part ends and what the damage after it is.
@Suite struct RecordFileTests {
  /// A journal of `n` channel records and the offsets where each record starts.
  static func journal(_ n: Int) -> (bytes: [UInt8], starts: [Int]) {
    var bytes = RecordFile.journalMagic
    var starts: [Int] = []
    for i in 0..<n {
      starts.append(bytes.count)
      let record = ChannelRecord(
        name: ChannelName("ch\(i % 3)")!, count: i, override: SettingsOverride(), seq: UInt64(i + 1))
      RecordCodec.append(.channel(record), to: &bytes)
    }
    return (bytes, starts)
  }

  @Test func anEmptyFileHasNoRecordsAndNoDamage() {
    let contents = RecordFile.scan([], magic: RecordFile.journalMagic)
    #expect(contents.records.isEmpty && contents.damage == nil)
  }

  @Test func aFileCutAnywhereInsideItsLastRecordIsATornTail() {
    let (bytes, starts) = Self.journal(5)
    let last = starts[4]
    for cut in (last + 1)..<bytes.count {
      let contents = RecordFile.scan(Array(bytes[..<cut]), magic: RecordFile.journalMagic)
      #expect(contents.records.count == 4, "cut at \(cut)")
      #expect(contents.damage == .tornTail(offset: last, droppedBytes: cut - last))
      #expect(contents.validLength == last)
    }
  }

  @Test func aHeaderCutShortIsATornTailAndAnyOtherHeaderIsBad() {
    let partial = Array(RecordFile.journalMagic.prefix(3))
    #expect(RecordFile.scan(partial, magic: RecordFile.journalMagic).damage == .tornTail(offset: 0, droppedBytes: 3))
    #expect(RecordFile.scan(Array("NOTBADGE".utf8), magic: RecordFile.journalMagic).damage == .badHeader)
    #expect(RecordFile.scan(RecordFile.snapshotMagic, magic: RecordFile.journalMagic).damage == .badHeader)
  }

  @Test(arguments: [1, 7, 100, 5000])
  func randomBytesAfterTheLastRecordAreATornTail(count: Int) {
    var (bytes, _) = Self.journal(5)
    let good = bytes.count
    var generator = SplitMix(seed: UInt64(count))
    for _ in 0..<count { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records.count == 5)
    #expect(contents.damage == .tornTail(offset: good, droppedBytes: count))
  }

  @Test func zerosAfterTheLastRecordAreATornTail() {
    var (bytes, _) = Self.journal(3)
    let good = bytes.count
    bytes += [UInt8](repeating: 0, count: 4096)
    #expect(
      RecordFile.scan(bytes, magic: RecordFile.journalMagic).damage == .tornTail(offset: good, droppedBytes: 4096))
  }

  @Test func aDamagedRecordWithGoodOnesAfterItIsCorruption() {
    let (bytes, starts) = Self.journal(6)
    for target in 0..<5 {
      for byteInRecord in [0, 4, 8, 12] {
        var damaged = bytes
        damaged[starts[target] + byteInRecord] ^= 0x40
        let contents = RecordFile.scan(damaged, magic: RecordFile.journalMagic)
        #expect(contents.records.count == target, "record \(target), byte \(byteInRecord)")
        guard case .corrupt(let offset, _) = contents.damage else {
          Issue.record("expected corruption, got \(String(describing: contents.damage))")
          continue
        }
        #expect(offset == starts[target])
      }
    }
  }
}
