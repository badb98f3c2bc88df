import BadgeCore

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
  /// The tags that are not settings'.
  static let stateTags: [UInt8] = [dayTag, totalTag, idTag]

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
      appendFramed(maxLength: 160, to: &out) { write(record, to: &$0) }
      return
    }
    appendChannel(
      channel.seq, channel.name, (channel.count, channel.unseen, channel.total),
      hasOverride: !channel.override.isEmpty, channel.override, channel.day, channel.id, to: &out)
  }

  /// Appends the record of `channel` with its day of history and the id of the request that
  /// changed it, framed: the bytes of `append(.channel(ChannelRecord(channel, day: day, id:
  /// id)))`, written from the channel itself rather than from a copy of it (the journal's record
  /// of every change).
  public static func append(_ channel: Channel, day: HistoryDay?, id: RequestID?, to out: inout [UInt8]) {
    appendChannel(
      channel.seq, channel.name, (channel.count, channel.unseen, channel.total), hasOverride: channel.hasOverride,
      channel.override, day, id, to: &out)
  }

  /// A channel record, framed. Most channels have no settings of their own: theirs skip walking
  /// the settings (`NoSettings`), and `override` is not even read.
  @inline(__always)
  private static func appendChannel(
    _ seq: UInt64, _ name: ChannelName, _ counts: (count: Int, unseen: Int, total: Int), hasOverride: Bool,
    _ override: @autoclosure () -> SettingsOverride, _ day: HistoryDay?, _ id: RequestID?, to out: inout [UInt8]
  ) {
    if hasOverride {
      var settings = SettingFields(override())
      appendChannel(seq, name, counts, &settings, day, id, to: &out)
    } else {
      var none = NoSettings()
      appendChannel(seq, name, counts, &none, day, id, to: &out)
    }
  }

  /// A channel record, framed: its kind, `seq`, name and count, its settings' flags and fields
  /// with `unseen` among them, then its day of history, its total and its request's id.
  @inline(__always)
  private static func appendChannel(
    _ seq: UInt64, _ name: ChannelName, _ counts: (count: Int, unseen: Int, total: Int),
    _ settings: inout some ChannelFields, _ day: HistoryDay?, _ id: RequestID?, to out: inout [UInt8]
  ) {
    appendFramed(maxLength: 208 + settings.textLength, to: &out) { w in
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
    }
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
    case .doNotDisturb(let until, let saved):
      w.write(Record.Kind.doNotDisturb.rawValue)
      w.write(until == nil ? 0 : 1)
      w.write(littleEndian: until ?? 0)
      // Without an id the record stays as it was before ids existed.
      if let saved {
        w.write(idTag)
        w.write(littleEndian: saved.seq)
        writeID(saved.id, to: &w)
      }
    case .requestID(let saved):
      w.write(Record.Kind.requestID.rawValue)
      w.write(littleEndian: saved.seq)
      writeID(saved.id, to: &w)
    case .snapshotStart(let seq):
      w.write(Record.Kind.snapshotStart.rawValue)
      w.write(littleEndian: seq)
    case .snapshotEnd(let channels, let days, let ids):
      w.write(Record.Kind.snapshotEnd.rawValue)
      w.write(littleEndian: UInt32(channels))
      // Without history and ids the trailer stays as it was before history existed, and
      // without ids as it was before ids.
      if days > 0 || ids > 0 { w.write(littleEndian: UInt32(days)) }
      if ids > 0 { w.write(littleEndian: UInt32(ids)) }
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

  /// A setting's value of `form` as `writeValue` wrote it; `nil` past the end or for a yes/no
  /// byte other than 0 and 1.
  private static func readValue(_ form: PlainSettingValue.Form, from reader: inout ByteReader) -> PlainSettingValue? {
    switch form {
    case .number:
      guard let n: UInt32 = reader.integer() else { return nil }
      return .number(Int(n))
    case .choice:
      guard let place = reader.byte() else { return nil }
      return .choice(Int(place))
    case .yesNo:
      guard let byte = reader.byte(), byte <= 1 else { return nil }
      return .yesNo(byte == 1)
    case .text:
      guard let length: UInt16 = reader.integer(), let raw = reader.bytes(Int(length)) else { return nil }
      return .text(String(decoding: raw, as: UTF8.self))
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

  /// A day of history as the records hold it, if its figures make sense: counts within
  /// `Limits.maxCount`, and an end count no higher than the peak.
  static func historyDay(day: Int32, arrivals: UInt64, clears: UInt64, peak: UInt64, endCount: UInt64) -> HistoryDay? {
    guard arrivals <= UInt64(Int.max), clears <= UInt64(Int.max), peak <= UInt64(Limits.maxCount), endCount <= peak
    else { return nil }
    let figures = DayFigures(arrivals: Int(arrivals), clears: Int(clears), peak: Int(peak))
    return HistoryDay(day: Int(day), figures: figures, endCount: Int(endCount))
  }

  /// Decodes a payload (checksum already verified); `nil` when it does not make sense.
  static func decode(_ payload: UnsafeRawBufferPointer) -> Record? {
    var reader = ByteReader(payload)
    guard let kindByte = reader.byte(), let kind = Record.Kind(rawValue: kindByte) else { return nil }
    let record: Record
    switch kind {
    case .channel:
      guard let seq: UInt64 = reader.integer(), let name = reader.name(),
        let count: UInt32 = reader.integer(), count <= UInt32(Limits.maxCount), let flags = reader.byte()
      else { return nil }
      var override = SettingsOverride.empty
      var unseen: Int?
      for bit in fixedBits where flags & (1 << bit) != 0 {
        if bit == unseenBit {
          guard let v: UInt32 = reader.integer(), v <= count else { return nil }
          unseen = Int(v)
        } else if let key = fixedSettings[bit] {
          guard let value = readValue(key.form, from: &reader), key.restore(value, into: &override) else { return nil }
        }
      }
      for key in SettingKey.allCases {
        if case .inFlags(let bit, let valueBit) = key.record, flags & (1 << bit) != 0 {
          guard key.restore(.yesNo(flags & (1 << valueBit) != 0), into: &override) else { return nil }
        }
      }
      var day: HistoryDay?
      var total: Int?
      var id: RequestID?
      var seenTags: Set<UInt8> = []
      while !reader.isAtEnd {
        guard let tag = reader.byte() else { return nil }
        if tag == dayTag {
          guard day == nil, let d: Int32 = reader.integer(), let arrivals = reader.varint(),
            let clears = reader.varint(), let peak = reader.varint(), let endCount = reader.varint(),
            let entry = historyDay(day: d, arrivals: arrivals, clears: clears, peak: peak, endCount: endCount)
          else { return nil }
          day = entry
        } else if tag == totalTag {
          // A total is never below the count, and only written when it differs from it.
          guard total == nil, let value = reader.varint(), value > UInt64(count), value <= UInt64(Int.max)
          else { return nil }
          total = Int(value)
        } else if tag == idTag {
          guard id == nil, let value = reader.requestID() else { return nil }
          id = value
        } else {
          // A setting's tag, once: a repeated or unknown tag is damage.
          guard let key = taggedSettings[tag], !seenTags.contains(tag),
            let value = readValue(key.form, from: &reader), key.restore(value, into: &override)
          else { return nil }
          seenTags.insert(tag)
        }
      }
      record = .channel(
        ChannelRecord(
          name: name, count: Int(count), unseen: unseen, total: total, override: override, seq: seq, day: day, id: id))
    case .doNotDisturb:
      guard let on = reader.byte(), on <= 1, let until: UInt64 = reader.integer() else { return nil }
      // The id came later; a record written before it ends here.
      var saved: SavedRequestID?
      if !reader.isAtEnd {
        guard reader.byte() == idTag, let seq: UInt64 = reader.integer(), let id = reader.requestID() else {
          return nil
        }
        saved = SavedRequestID(seq: seq, id: id)
      }
      record = .doNotDisturb(until: on == 1 ? until : nil, id: saved)
    case .requestID:
      guard let seq: UInt64 = reader.integer(), let id = reader.requestID() else { return nil }
      record = .requestID(SavedRequestID(seq: seq, id: id))
    case .snapshotStart:
      guard let seq: UInt64 = reader.integer() else { return nil }
      record = .snapshotStart(seq: seq)
    case .snapshotEnd:
      guard let channels: UInt32 = reader.integer() else { return nil }
      // The day count came with history, the id count with ids; a trailer written before
      // either ends before it.
      var counts: [Int] = []
      while !reader.isAtEnd && counts.count < 2 {
        guard let n: UInt32 = reader.integer() else { return nil }
        counts.append(Int(n))
      }
      record = .snapshotEnd(channels: Int(channels), days: counts.first ?? 0, ids: counts.dropFirst().first ?? 0)
    case .day:
      guard let seq: UInt64 = reader.integer(), let name = reader.name(),
        let day: Int32 = reader.integer(), let arrivals: UInt64 = reader.integer(),
        let clears: UInt64 = reader.integer(), let peak: UInt32 = reader.integer(),
        let endCount: UInt32 = reader.integer(),
        let entry = historyDay(
          day: day, arrivals: arrivals, clears: clears, peak: UInt64(peak), endCount: UInt64(endCount))
      else { return nil }
      record = .day(DayRecord(name: name, entry: entry, seq: seq))
    }
    return reader.isAtEnd ? record : nil
  }
}
