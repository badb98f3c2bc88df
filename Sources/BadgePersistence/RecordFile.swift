/// The two files of the state folder: a magic header, then framed records.
public enum RecordFile {
  /// `journal`: the changes since the last snapshot, appended as they happen.
  public static let journalMagic: [UInt8] = Array("BADGEDJ1".utf8)
  /// `snapshot`: every persistent channel, written whole at compaction.
  public static let snapshotMagic: [UInt8] = Array("BADGEDS1".utf8)

  /// What is wrong with a file.
  public enum Damage: Equatable, Sendable {
    /// The file ends inside a record, or in bytes that hold no valid record at all: the trace
    /// of an append that did not finish (a crash). Everything before `offset` is good;
    /// `droppedBytes` runs to the last byte that is not zero (the zeros after it are room).
    case tornTail(offset: Int, droppedBytes: Int)
    /// A bad record with valid records after it: real damage, not a crash. Everything before
    /// `offset` is good.
    case corrupt(offset: Int, reason: String)
    /// The file does not start with the expected header.
    case badHeader
  }

  /// The records of a file up to the first damage, and the damage, if any.
  public struct Contents: Equatable, Sendable {
    public var records: [Record] = []
    public var damage: Damage?
    /// The length of the good part (header and whole valid records).
    public var validLength: Int = 0
  }

  /// A new file's header.
  public static func header(magic: [UInt8]) -> [UInt8] { magic }

  /// Reads the records of a whole file. An empty file has no records and no damage (a file
  /// created just before a crash), and neither has a file whose records are followed by zeros
  /// alone: room a journal made ahead of its end (`AppendOnlyFile.makeRoom`), which a crash
  /// may also leave half made. A torn record followed by zeros is a torn tail.
  public static func scan(_ bytes: [UInt8], magic: [UInt8]) -> Contents {
    var contents = Contents()
    guard !bytes.isEmpty else { return contents }
    guard bytes.count >= magic.count, bytes.starts(with: magic) else {
      // A header cut short by a crash right after the file was created is a torn tail too.
      if bytes.count < magic.count, magic.starts(with: bytes) {
        contents.damage = .tornTail(offset: 0, droppedBytes: bytes.count)
      } else {
        contents.damage = .badHeader
      }
      return contents
    }
    bytes.withUnsafeBytes { raw in
      var offset = magic.count
      contents.validLength = offset
      while offset < raw.count {
        switch frame(in: raw, at: offset) {
        case .record(let record, let next):
          contents.records.append(record)
          offset = next
          contents.validLength = offset
        case .bad(let reason):
          let end = endOfContent(in: raw, from: offset)
          if end == offset { return }  // room: zeros to the end
          if hasValidRecord(in: raw, after: offset, before: end) {
            contents.damage = .corrupt(offset: offset, reason: reason)
          } else {
            contents.damage = .tornTail(offset: offset, droppedBytes: end - offset)
          }
          return
        }
      }
    }
    return contents
  }

  private enum Frame {
    case record(Record, next: Int)
    case bad(String)
  }

  private static func frame(in raw: UnsafeRawBufferPointer, at offset: Int) -> Frame {
    guard raw.count - offset >= RecordLimits.headerSize else { return .bad("the file ends inside a record header") }
    let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    let crc = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
    guard length >= 1, length <= RecordLimits.maxPayload else { return .bad("a record claims \(length) bytes") }
    let start = offset + RecordLimits.headerSize
    guard raw.count - start >= length else { return .bad("the file ends inside a record") }
    let payload = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
    guard Checksum.crc32(payload) == crc else { return .bad("a record's checksum does not match") }
    guard let record = RecordCodec.decode(payload) else { return .bad("a record cannot be decoded") }
    return .record(record, next: start + length)
  }

  /// The offset just past the last byte that is not zero, at `offset` or after it (`offset`
  /// when every byte from there on is zero).
  private static func endOfContent(in raw: UnsafeRawBufferPointer, from offset: Int) -> Int {
    var end = raw.count
    while end > offset && raw[end - 1] == 0 { end -= 1 }
    return end
  }

  /// Whether a valid record starts after `offset` and before `end` (a record's length is not
  /// zero, so one starts before the last byte that is not zero): then the damage at `offset`
  /// is not the end of an unfinished append but something in the middle.
  private static func hasValidRecord(in raw: UnsafeRawBufferPointer, after offset: Int, before end: Int) -> Bool {
    var candidate = offset + 1
    while candidate < end && candidate + RecordLimits.headerSize < raw.count {
      if case .record = frame(in: raw, at: candidate) { return true }
      candidate += 1
    }
    return false
  }
}
