import BadgeCore

/// Writes records into a byte buffer, framed, and reads them back from a payload: the one place
/// the records' bytes are defined.
public enum RecordCodec {
  private static let hasMaxLabel: UInt8 = 1 << 0
  private static let hasStyle: UInt8 = 1 << 1
  private static let hasPulseMs: UInt8 = 1 << 2
  private static let hasMuted: UInt8 = 1 << 3
  private static let mutedValue: UInt8 = 1 << 4
  /// `unseen` follows when it differs from the count (a record without it reads as all unseen).
  private static let hasUnseen: UInt8 = 1 << 5
  private static let hasBadge: UInt8 = 1 << 6
  private static let hasDND: UInt8 = 1 << 7
  // The flags byte is full: settings added after it follow the fixed fields as tagged
  // extensions (a tag byte, then the value) up to the record's end. A record without them is
  // byte for byte what earlier versions wrote, and a file they wrote reads as it always did.
  /// Extension tag: `step` follows as a 32-bit integer.
  private static let stepTag: UInt8 = 1
  /// Extension tag: `export` follows as its length (16 bits), then the desktop id's bytes.
  private static let exportTag: UInt8 = 2
  /// Extension tag: the channel's day of history follows (a journal's record of a change): the
  /// day as a 32-bit integer, then arrivals, clears, peak and end count as LEB128 varints:
  /// smaller than a day record of its own, which repeats the name and the sequence number.
  private static let dayTag: UInt8 = 3

  /// Appends `record`, framed, to `out`: written on the stack (`ByteWriter`), its checksum
  /// taken there, and appended in one copy.
  public static func append(_ record: Record, to out: inout [UInt8]) {
    let export: String? = if case .channel(let channel) = record { channel.override.export } else { nil }
    appendFramed(maxLength: maxFramedLength(export: export), to: &out) { write(record, to: &$0) }
  }

  /// Appends the record of `channel` with its day of history, framed: the bytes of
  /// `append(.channel(ChannelRecord(channel, day: day)))`, written from the channel itself
  /// rather than from a copy of it (the journal's record of every change).
  public static func append(_ channel: Channel, day: HistoryDay?, to out: inout [UInt8]) {
    let override = channel.override
    appendFramed(maxLength: maxFramedLength(export: override.export), to: &out) { w in
      writeChannel(
        seq: channel.seq, name: channel.name, count: channel.count, unseen: channel.unseen,
        override: override, day: day, to: &w)
    }
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

  /// Room for any record's frame: the fixed fields, a name and every extension take under 160
  /// bytes, an `export` id its length more.
  static func maxFramedLength(export: String?) -> Int {
    guard let export else { return 160 }
    return 160 + min(export.utf8.count, Int(UInt16.max))
  }

  /// The payload of `record`: its kind, then its fields.
  private static func write(_ record: Record, to w: inout ByteWriter) {
    switch record {
    case .channel(let channel):
      writeChannel(
        seq: channel.seq, name: channel.name, count: channel.count, unseen: channel.unseen,
        override: channel.override, day: channel.day, to: &w)
    case .doNotDisturb(let until):
      w.write(Record.Kind.doNotDisturb.rawValue)
      w.write(until == nil ? 0 : 1)
      w.write(littleEndian: until ?? 0)
    case .snapshotStart(let seq):
      w.write(Record.Kind.snapshotStart.rawValue)
      w.write(littleEndian: seq)
    case .snapshotEnd(let channels, let days):
      w.write(Record.Kind.snapshotEnd.rawValue)
      w.write(littleEndian: UInt32(channels))
      // Without history the trailer stays as it was before history existed.
      if days > 0 { w.write(littleEndian: UInt32(days)) }
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

  /// A channel record's payload: its kind, then its fields.
  private static func writeChannel(
    seq: UInt64, name: ChannelName, count: Int, unseen: Int, override: SettingsOverride, day: HistoryDay?,
    to w: inout ByteWriter
  ) {
    w.write(Record.Kind.channel.rawValue)
    w.write(littleEndian: seq)
    writeName(name, to: &w)
    w.write(littleEndian: UInt32(count))
    var flags: UInt8 = 0
    if override.maxLabel != nil { flags |= hasMaxLabel }
    if override.style != nil { flags |= hasStyle }
    if override.pulseMs != nil { flags |= hasPulseMs }
    if let muted = override.muted { flags |= hasMuted | (muted ? mutedValue : 0) }
    if unseen != count { flags |= hasUnseen }
    if override.badge != nil { flags |= hasBadge }
    if override.dnd != nil { flags |= hasDND }
    w.write(flags)
    if let maxLabel = override.maxLabel { w.write(littleEndian: UInt32(maxLabel)) }
    if let style = override.style { w.write(style == .dot ? 1 : 0) }
    if let pulseMs = override.pulseMs { w.write(littleEndian: UInt32(pulseMs)) }
    if unseen != count { w.write(littleEndian: UInt32(unseen)) }
    if let badge = override.badge { w.write(badge == .unseen ? 1 : 0) }
    if let dnd = override.dnd { w.write(dnd == .ignore ? 1 : 0) }
    if let step = override.step {
      w.write(stepTag)
      w.write(littleEndian: UInt32(step))
    }
    if var export = override.export {
      w.write(exportTag)
      let bytes = min(export.utf8.count, Int(UInt16.max))
      w.write(littleEndian: UInt16(bytes))
      export.withUTF8 { w.write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[..<bytes])) }
    }
    if let day {
      w.write(dayTag)
      w.write(littleEndian: Int32(clamping: day.day))
      writeVarint(UInt64(day.figures.arrivals), to: &w)
      writeVarint(UInt64(day.figures.clears), to: &w)
      writeVarint(UInt64(day.figures.peak), to: &w)
      writeVarint(UInt64(day.endCount), to: &w)
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
      var override = SettingsOverride()
      if flags & hasMaxLabel != 0 {
        guard let v: UInt32 = reader.integer(), Limits.maxLabel.contains(Int(v)) else { return nil }
        override.maxLabel = Int(v)
      }
      if flags & hasStyle != 0 {
        guard let v = reader.byte(), v <= 1 else { return nil }
        override.style = v == 1 ? .dot : .count
      }
      if flags & hasPulseMs != 0 {
        guard let v: UInt32 = reader.integer(), Limits.pulseMs.contains(Int(v)) else { return nil }
        override.pulseMs = Int(v)
      }
      if flags & hasMuted != 0 { override.muted = flags & mutedValue != 0 }
      var unseen: Int?
      if flags & hasUnseen != 0 {
        guard let v: UInt32 = reader.integer(), v <= count else { return nil }
        unseen = Int(v)
      }
      if flags & hasBadge != 0 {
        guard let v = reader.byte(), v <= 1 else { return nil }
        override.badge = v == 1 ? .unseen : .count
      }
      if flags & hasDND != 0 {
        guard let v = reader.byte(), v <= 1 else { return nil }
        override.dnd = v == 1 ? .ignore : .obey
      }
      var day: HistoryDay?
      while !reader.isAtEnd {
        guard let tag = reader.byte() else { return nil }
        switch tag {
        case stepTag:
          guard override.step == nil, let v: UInt32 = reader.integer(), Limits.step.contains(Int(v)) else { return nil }
          override.step = Int(v)
        case exportTag:
          guard override.export == nil, let length: UInt16 = reader.integer(), let raw = reader.bytes(Int(length)),
            let id = try? SettingKey.desktopID(String(decoding: raw, as: UTF8.self)), id.utf8.count == raw.count
          else { return nil }
          override.export = id
        case dayTag:
          guard day == nil, let d: Int32 = reader.integer(), let arrivals = reader.varint(),
            let clears = reader.varint(), let peak = reader.varint(), let endCount = reader.varint(),
            let entry = historyDay(day: d, arrivals: arrivals, clears: clears, peak: peak, endCount: endCount)
          else { return nil }
          day = entry
        default: return nil
        }
      }
      record = .channel(
        ChannelRecord(name: name, count: Int(count), unseen: unseen, override: override, seq: seq, day: day))
    case .doNotDisturb:
      guard let on = reader.byte(), on <= 1, let until: UInt64 = reader.integer() else { return nil }
      record = .doNotDisturb(until: on == 1 ? until : nil)
    case .snapshotStart:
      guard let seq: UInt64 = reader.integer() else { return nil }
      record = .snapshotStart(seq: seq)
    case .snapshotEnd:
      guard let channels: UInt32 = reader.integer() else { return nil }
      // The day count came with history; a trailer written before it ends here.
      var days = 0
      if !reader.isAtEnd {
        guard let n: UInt32 = reader.integer() else { return nil }
        days = Int(n)
      }
      record = .snapshotEnd(channels: Int(channels), days: days)
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
