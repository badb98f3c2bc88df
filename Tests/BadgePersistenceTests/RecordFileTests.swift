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

  /// A file cut anywhere inside its last record, as an append cut short leaves it, or with the
  /// room's zeros after the cut, as a write into room made ahead leaves it. The bytes dropped
  /// run to the last one that is not zero; a record cut only in zeros it ends with is whole.
  @Test(arguments: [0, 4096])
  func aFileCutAnywhereInsideItsLastRecordIsATornTail(room: Int) {
    let (bytes, starts) = Self.journal(5)
    let last = starts[4]
    for cut in (last + 1)..<bytes.count {
      let file = Array(bytes[..<cut]) + [UInt8](repeating: 0, count: room)
      let contents = RecordFile.scan(file, magic: RecordFile.journalMagic)
      if room > 0 && bytes[cut...].allSatisfy({ $0 == 0 }) {
        #expect(contents.records.count == 5 && contents.damage == nil, "cut at \(cut)")
        continue
      }
      let written = bytes[last..<cut].lastIndex { $0 != 0 }.map { $0 + 1 - last } ?? 0
      #expect(contents.records.count == 4, "cut at \(cut)")
      #expect(contents.damage == .tornTail(offset: last, droppedBytes: written), "cut at \(cut)")
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
    for _ in 0..<count - 1 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
    bytes.append(0xA5)  // not zero: zeros at the end are room
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records.count == 5)
    #expect(contents.damage == .tornTail(offset: good, droppedBytes: count))
  }

  /// Room a journal made ahead of its end, whole or cut short by a crash while it was made.
  @Test(arguments: [1, 8, 4096, 1 << 20])
  func zerosAfterTheLastRecordAreRoomNotDamage(count: Int) {
    var (bytes, _) = Self.journal(3)
    let good = bytes.count
    bytes += [UInt8](repeating: 0, count: count)
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records.count == 3)
    #expect(contents.damage == nil)
    #expect(contents.validLength == good)
    let headerOnly = RecordFile.journalMagic + [UInt8](repeating: 0, count: count)
    #expect(RecordFile.scan(headerOnly, magic: RecordFile.journalMagic) == RecordFile.Contents(validLength: 8))
  }

  @Test func aDamagedRecordWithGoodOnesAndRoomAfterItIsCorruption() {
    var (bytes, starts) = Self.journal(4)
    bytes[starts[1] + 8] ^= 0x40
    bytes += [UInt8](repeating: 0, count: 4096)
    let contents = RecordFile.scan(bytes, magic: RecordFile.journalMagic)
    #expect(contents.records.count == 1)
    guard case .corrupt(let offset, _) = contents.damage else {
      Issue.record("expected corruption, got \(String(describing: contents.damage))")
      return
    }
    #expect(offset == starts[1])
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
