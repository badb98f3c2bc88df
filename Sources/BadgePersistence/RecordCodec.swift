import BadgeCore
import BadgeProtocol

/// Writes records into a byte buffer, framed, and reads them back from a payload: the one place
/// the records' bytes are defined.
public enum RecordCodec {
  // A channel record: its kind, `seq`, name and count, a flags byte, then the fixed fields the
  // flags announce in the order of their bits, then tagged extensions up to the record's end.
  // The settings' bits and tags are theirs (`SettingKey.record`); bit 5 is `unseen`, tag 3 the
  // day of history, tag 4 the running total, tag 5 the request's id. The flags byte is full,
  // so settings added since are tagged: a record without them is byte for byte what earlier
  // versions wrote, and files they wrote read as they always did.
  /// The flags bit that says `unseen` follows, as it does when it differs from the count (a
  /// record without it reads as all unseen).
  static let unseenBit: UInt8 = 5
  static let hasUnseen: UInt8 = 1 << unseenBit
  /// Extension tag: the channel's day of history follows (a journal's record of a change): the
  /// day as a 32-bit integer, then arrivals, clears, peak and end count as LEB128 varints:
  /// smaller than a day record of its own, which repeats the name and the sequence number.
  static let dayTag: UInt8 = 3
  /// Extension tag: the running total follows, as a varint, when it differs from the count (a
  /// record without it, as every record before totals, reads as its count).
  static let totalTag: UInt8 = 4
  /// Extension tag: the id of the request that made the change follows (`writeID`).
  static let idTag: UInt8 = 5
  /// Extension tag: the channel mirrors another machine's: its owner (a byte of length and the
  /// name), a flags byte (bit 0: stale), the second it was last heard from while stale and
  /// the owner's `seq`, as varints.
  static let mirrorTag: UInt8 = 6
  /// Extension tag of a do-not-disturb record: where and when it changed: the wall-clock
  /// milliseconds, a byte (1: another machine), the host (a byte of length and the name).
  static let stampTag: UInt8 = 7
  /// Extension tag: the write to forward to a mirrored channel's owner that the change put in
  /// the outbox: its counter (64 bits), id (a byte of length) and request line (16 bits of
  /// length; `writeLine`).
  static let forwardTag: UInt8 = 8
  /// Extension tag of a snapshot's start record: the store's `totalFloor` follows, as a
  /// varint, when it is above 0 (a start record without it reads as 0).
  static let totalFloorTag: UInt8 = 9
  /// The tags that are not settings'.
  static let stateTags: [UInt8] = [dayTag, totalTag, idTag, mirrorTag, stampTag, forwardTag, totalFloorTag]

  /// The settings kept among the fixed fields, by their flags bit.
  static let fixedSettings: [UInt8: SettingKey] = Dictionary(
    uniqueKeysWithValues: SettingKey.allCases.compactMap { key in
      if case .fixed(let bit) = key.record { return (bit, key) } else { return nil }
    })

  /// The flags bits of the fixed fields (`unseen`'s and the settings'), in the order the fields
  /// follow the flags.
  static let fixedBits: [UInt8] = ([unseenBit] + fixedSettings.keys).sorted()

  /// The settings kept as tagged extensions, by tag.
  static let taggedSettings: [UInt8: SettingKey] = Dictionary(
    uniqueKeysWithValues: SettingKey.allCases.compactMap { key in
      if case .tagged(let tag) = key.record { return (tag, key) } else { return nil }
    })

  /// Appends `record`, framed, to `out`: written on the stack (`ByteWriter`), its checksum
  /// taken there, and appended in one copy.
  public static func append(_ record: Record, to out: inout [UInt8]) {
    guard case .channel(let channel) = record else {
      appendFramed(maxLength: 512, to: &out) { write(record, to: &$0) }
      return
    }
    appendChannel(
      channel.seq, channel.name, (channel.count, channel.unseen, channel.total),
      hasOverride: !channel.override.isEmpty, channel.override, channel.day, channel.id, channel.mirror,
      channel.forward.map(Forwarded.init), to: &out)
  }

  /// Appends the record of `channel` with its day of history and the id of the request that
  /// changed it, framed: the bytes of `append(.channel(ChannelRecord(channel, day: day, id:
  /// id)))`, written from the channel itself rather than from a copy of it (the journal's record
  /// of every change).
  public static func append(
    _ channel: Channel, day: HistoryDay?, id: RequestID?, forward: Forwarded? = nil, to out: inout [UInt8]
  ) {
    guard !channel.isMirrored && forward == nil else { return appendMirrored(channel, day, id, forward, to: &out) }
    appendChannel(
      channel.seq, channel.name, (channel.count, channel.unseen, channel.total), hasOverride: channel.hasOverride,
      channel.override, day, id, nil, nil, to: &out)
  }

  /// The record of a mirrored channel's change, with its mirror state and forwarded write: a
  /// path of its own, so that a local channel's (every other change) carries neither.
  @inline(never)
  private static func appendMirrored(
    _ channel: Channel, _ day: HistoryDay?, _ id: RequestID?, _ forward: Forwarded?, to out: inout [UInt8]
  ) {
    appendChannel(
      channel.seq, channel.name, (channel.count, channel.unseen, channel.total), hasOverride: channel.hasOverride,
      channel.override, day, id, channel.mirror, forward, to: &out)
  }

  /// A channel record, framed. Most channels have no settings of their own: theirs skip walking
  /// the settings (`NoSettings`), and `override` is not even read.
  @inline(__always)
  private static func appendChannel(
    _ seq: UInt64, _ name: ChannelName, _ counts: (count: Int, unseen: Int, total: Int), hasOverride: Bool,
    _ override: @autoclosure () -> SettingsOverride, _ day: HistoryDay?, _ id: RequestID?, _ mirror: MirrorState?,
    _ forward: Forwarded?, to out: inout [UInt8]
  ) {
    if hasOverride {
      var settings = SettingFields(override())
      appendChannel(seq, name, counts, &settings, day, id, mirror, forward, to: &out)
    } else {
      var none = NoSettings()
      appendChannel(seq, name, counts, &none, day, id, mirror, forward, to: &out)
    }
  }

  /// A channel record, framed: its kind, `seq`, name and count, its settings' flags and fields
  /// with `unseen` among them, then its day of history, its total and its request's id.
  @inline(__always)
  private static func appendChannel(
    _ seq: UInt64, _ name: ChannelName, _ counts: (count: Int, unseen: Int, total: Int),
    _ settings: inout some ChannelFields, _ day: HistoryDay?, _ id: RequestID?, _ mirror: MirrorState?,
    _ forward: Forwarded?, to out: inout [UInt8]
  ) {
    let extra = mirror == nil && forward == nil ? 0 : sharingRoom(forward)
    appendFramed(maxLength: 208 + settings.textLength + extra, to: &out) { w in
      w.write(Record.Kind.channel.rawValue)
      w.write(littleEndian: seq)
      writeName(name, to: &w)
      w.write(littleEndian: UInt32(counts.count))
      settings.write(unseen: counts.unseen != counts.count ? counts.unseen : nil, to: &w)
      if let day {
        w.write(dayTag)
        w.write(littleEndian: Int32(clamping: day.day))
        writeVarint(UInt64(day.figures.arrivals), to: &w)
        writeVarint(UInt64(day.figures.clears), to: &w)
        writeVarint(UInt64(day.figures.peak), to: &w)
        writeVarint(UInt64(day.endCount), to: &w)
      }
      if counts.total != counts.count {
        w.write(totalTag)
        writeVarint(UInt64(counts.total), to: &w)
      }
      if let id {
        w.write(idTag)
        writeID(id, to: &w)
      }
      if mirror != nil || forward != nil { writeSharing(mirror, forward, to: &w) }
    }
  }

  /// The room a channel record's mirror state and forwarded write take at most.
  @inline(never)
  private static func sharingRoom(_ forward: Forwarded?) -> Int {
    96 + 80 + (forward.map { lineRoom($0.entry) } ?? 0)
  }

  /// A mirrored channel's tags: its mirror state (tag 6) and the write its change forwards (tag
  /// 8). Apart from the record's writer, which every local change runs, so that it stays small.
  @inline(never)
  private static func writeSharing(_ mirror: MirrorState?, _ forward: Forwarded?, to w: inout ByteWriter) {
    if let mirror {
      w.write(mirrorTag)
      writeText(mirror.owner, to: &w)
      w.write(mirror.stale ? 1 : 0)
      writeVarint(UInt64(max(0, mirror.since)), to: &w)
      writeVarint(mirror.ownerSeq, to: &w)
    }
    if let entry = forward?.entry {
      w.write(forwardTag)
      w.write(littleEndian: entry.counter)
      writeText(entry.id, to: &w)
      writeLine(entry, to: &w)
    }
  }

  /// A short text (a host name): its length in one byte, then its bytes (cut at 255).
  static func writeText(_ text: String, to w: inout ByteWriter) {
    var text = text
    text.withUTF8 { bytes in
      let count = min(bytes.count, 255)
      w.write(UInt8(count))
      w.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<count]))
    }
  }

  /// A forwarded write as its request line (`RequestEncoder`, with the write's id when it takes
  /// one: `INCR ci 1 id=<id>`, `PULSE ci`): its length in 16 bits, then its bytes. Every version
  /// wrote the line, so the records of each read in the others.
  static func writeLine(_ entry: ForwardEntry, to w: inout ByteWriter) {
    let start = w.count
    w.write(littleEndian: UInt16(0))
    RequestEncoder.write(.write(entry.channel, entry.write), id: entry.id, to: &w)
    w.overwrite(littleEndian: UInt16(w.count - start - 2), at: start)
  }

  /// The room `writeLine` takes at most.
  static func lineRoom(_ entry: ForwardEntry) -> Int {
    2 + RequestEncoder.room(.write(entry.channel, entry.write), id: entry.id)
  }

  /// A request id: the token's hash, high then low half, and the request's fingerprint, each
  /// in 64 bits.
  static func writeID(_ id: RequestID, to w: inout ByteWriter) {
    w.write(littleEndian: id.high)
    w.write(littleEndian: id.low)
    w.write(littleEndian: id.fingerprint)
  }

  /// Frames what `payload` writes: its length and checksum, then its bytes.
  @inline(__always)
  private static func appendFramed(maxLength: Int, to out: inout [UInt8], _ payload: (inout ByteWriter) -> Void) {
    out.appendWritten(maxLength: maxLength) { w in
      w.write(littleEndian: UInt64(0))  // length and checksum, filled below
      payload(&w)
      let written = w.written(from: RecordLimits.headerSize)
      w.overwrite(littleEndian: UInt32(written.count), at: 0)
      w.overwrite(littleEndian: Checksum.crc32(written), at: 4)
    }
  }

  /// The payload of a record other than a channel's: its kind, then its fields. Any record's
  /// frame fits in 160 bytes, but for the text of a channel's settings (an `export` id).
  private static func write(_ record: Record, to w: inout ByteWriter) {
    switch record {
    case .channel:
      preconditionFailure("a channel record is written by appendChannel")
    case .doNotDisturb(let until, let saved, let stamp):
      w.write(Record.Kind.doNotDisturb.rawValue)
      w.write(until == nil ? 0 : 1)
      w.write(littleEndian: until ?? 0)
      // Without an id the record stays as it was before ids existed, and without a stamp as
      // it was before sharing.
      if let saved {
        w.write(idTag)
        w.write(littleEndian: saved.seq)
        writeID(saved.id, to: &w)
      }
      if let stamp {
        w.write(stampTag)
        w.write(littleEndian: stamp.at)
        w.write(stamp.remote ? 1 : 0)
        writeText(stamp.host, to: &w)
      }
    case .forward(let entry):
      w.write(Record.Kind.forward.rawValue)
      w.write(littleEndian: entry.seq)
      w.write(littleEndian: entry.counter)
      writeName(entry.channel, to: &w)
      writeText(entry.id, to: &w)
      writeLine(entry, to: &w)
    case .delivered(let id):
      w.write(Record.Kind.delivered.rawValue)
      writeText(id, to: &w)
    case .forwardIDs(let epoch, let next):
      w.write(Record.Kind.forwardIDs.rawValue)
      w.write(littleEndian: epoch)
      w.write(littleEndian: next)
    case .requestID(let saved):
      w.write(Record.Kind.requestID.rawValue)
      w.write(littleEndian: saved.seq)
      writeID(saved.id, to: &w)
    case .snapshotStart(let seq, let totalFloor):
      w.write(Record.Kind.snapshotStart.rawValue)
      w.write(littleEndian: seq)
      // Without a floor the record stays as it was before floors existed.
      if totalFloor > 0 {
        w.write(totalFloorTag)
        writeVarint(UInt64(totalFloor), to: &w)
      }
    case .snapshotEnd(let channels, let days, let ids, let forwards):
      w.write(Record.Kind.snapshotEnd.rawValue)
      w.write(littleEndian: UInt32(channels))
      // Without history and ids the trailer stays as it was before history existed, without
      // ids as it was before ids, and without forwarded writes as it was before them.
      if days > 0 || ids > 0 || forwards > 0 { w.write(littleEndian: UInt32(days)) }
      if ids > 0 || forwards > 0 { w.write(littleEndian: UInt32(ids)) }
      if forwards > 0 { w.write(littleEndian: UInt32(forwards)) }
    case .day(let record):
      w.write(Record.Kind.day.rawValue)
      w.write(littleEndian: record.seq)
      writeName(record.name, to: &w)
      w.write(littleEndian: Int32(clamping: record.entry.day))
      w.write(littleEndian: UInt64(record.entry.figures.arrivals))
      w.write(littleEndian: UInt64(record.entry.figures.clears))
      w.write(littleEndian: UInt32(record.entry.figures.peak))
      w.write(littleEndian: UInt32(record.entry.endCount))
    }
  }

  /// A setting's value: a number in 32 bits, a choice or a yes/no in a byte, text as its length
  /// in 16 bits and its bytes (cut at 65,535).
  static func writeValue(_ value: PlainSettingValue, to w: inout ByteWriter) {
    switch value {
    case .number(let n): w.write(littleEndian: UInt32(n))
    case .choice(let place): w.write(UInt8(place))
    case .yesNo(let yes): w.write(yes ? 1 : 0)
    case .text(var text):
      let bytes = min(text.utf8.count, Int(UInt16.max))
      w.write(littleEndian: UInt16(bytes))
      text.withUTF8 { w.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[..<bytes])) }
    }
  }

  /// A channel name: its length in one byte, then its bytes.
  static func writeName(_ name: ChannelName, to w: inout ByteWriter) {
    w.write(UInt8(name.count))
    name.withBytes { w.write($0) }
  }

  /// An unsigned LEB128 varint: seven bits a byte, low bits first, the high bit set on every
  /// byte but the last.
  static func writeVarint(_ value: UInt64, to w: inout ByteWriter) {
    var v = value
    while v >= 0x80 {
      w.write(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    w.write(UInt8(v))
  }
}
