import BadgeCore
import BadgeProtocol

/// Reading records back from their payloads: the other half of `RecordCodec`, which defines
/// the bytes. A payload that does not make sense reads as `nil`.
extension RecordCodec {
  /// A setting's value of `form` as `writeValue` wrote it; `nil` past the end or for a yes/no
  /// byte other than 0 and 1.
  static func readValue(_ form: PlainSettingValue.Form, from reader: inout ByteReader) -> PlainSettingValue? {
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

  /// A day of history as the records hold it, if its figures make sense: counts within
  /// `Limits.maxCount`, and an end count no higher than the peak.
  static func historyDay(day: Int32, arrivals: UInt64, clears: UInt64, peak: UInt64, endCount: UInt64) -> HistoryDay? {
    guard arrivals <= UInt64(Int.max), clears <= UInt64(Int.max), peak <= UInt64(Limits.maxCount), endCount <= peak
    else { return nil }
    let figures = DayFigures(arrivals: Int(arrivals), clears: Int(clears), peak: Int(peak))
    return HistoryDay(day: Int(day), figures: figures, endCount: Int(endCount))
  }

  /// A forwarded write as `writeLine` wrote it, read back with `RequestParser`: a write to
  /// `channel`, with ` id=<id>` when it takes one and none when not; `nil` for any other line.
  static func forwardedWrite(_ reader: inout ByteReader, of channel: ChannelName, id: String) -> ChannelWrite? {
    guard let length: UInt16 = reader.integer(), let line = reader.bytes(Int(length)),
      case .success(let parsed) = RequestParser.parse(line), case .write(channel, let write) = parsed.request
    else { return nil }
    let expected = parsed.request.takesID ? RequestID(token: id, fingerprint: parsed.request.fingerprint) : nil
    return parsed.id == expected ? write : nil
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
      var mirror: MirrorState?
      var forward: ForwardEntry?
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
        } else if tag == mirrorTag {
          guard mirror == nil, let owner = reader.host(), let flags = reader.byte(), flags <= 1,
            let since = reader.varint(), since <= UInt64(Int.max), let ownerSeq = reader.varint()
          else { return nil }
          mirror = MirrorState(owner: owner, stale: flags == 1, since: Int(since), ownerSeq: ownerSeq)
        } else if tag == forwardTag {
          guard forward == nil, let counter: UInt64 = reader.integer(), let forwardID = reader.host(),
            let write = forwardedWrite(&reader, of: name, id: forwardID)
          else { return nil }
          forward = ForwardEntry(id: forwardID, counter: counter, channel: name, write: write, seq: seq)
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
          name: name, count: Int(count), unseen: unseen, total: total, override: override, seq: seq, day: day, id: id,
          mirror: mirror, forward: forward))
    case .doNotDisturb:
      guard let on = reader.byte(), on <= 1, let until: UInt64 = reader.integer() else { return nil }
      // The id came later, and the stamp after it; a record written before either ends here.
      var saved: SavedRequestID?
      var stamp: DNDStamp?
      while !reader.isAtEnd {
        let tag = reader.byte()
        if tag == idTag, saved == nil, stamp == nil {
          guard let seq: UInt64 = reader.integer(), let id = reader.requestID() else { return nil }
          saved = SavedRequestID(seq: seq, id: id)
        } else if tag == stampTag, stamp == nil {
          guard let at: UInt64 = reader.integer(), let remote = reader.byte(), remote <= 1, let host = reader.host()
          else { return nil }
          stamp = DNDStamp(at: at, host: host, remote: remote == 1)
        } else {
          return nil
        }
      }
      record = .doNotDisturb(until: on == 1 ? until : nil, id: saved, stamp: stamp)
    case .forward:
      guard let seq: UInt64 = reader.integer(), let counter: UInt64 = reader.integer(), let name = reader.name(),
        let id = reader.host(), let write = forwardedWrite(&reader, of: name, id: id)
      else { return nil }
      record = .forward(ForwardEntry(id: id, counter: counter, channel: name, write: write, seq: seq))
    case .delivered:
      guard let id = reader.host() else { return nil }
      record = .delivered(id: id)
    case .forwardIDs:
      guard let epoch: UInt64 = reader.integer(), let next: UInt64 = reader.integer() else { return nil }
      record = .forwardIDs(epoch: epoch, next: next)
    case .requestID:
      guard let seq: UInt64 = reader.integer(), let id = reader.requestID() else { return nil }
      record = .requestID(SavedRequestID(seq: seq, id: id))
    case .snapshotStart:
      guard let seq: UInt64 = reader.integer() else { return nil }
      // The floor came later; a record written before it ends here.
      var totalFloor = 0
      if !reader.isAtEnd {
        guard reader.byte() == totalFloorTag, let value = reader.varint(), value > 0, value <= UInt64(Int.max)
        else { return nil }
        totalFloor = Int(value)
      }
      record = .snapshotStart(seq: seq, totalFloor: totalFloor)
    case .snapshotEnd:
      guard let channels: UInt32 = reader.integer() else { return nil }
      // The day count came with history, the id count with ids; a trailer written before
      // either ends before it.
      var counts: [Int] = []
      while !reader.isAtEnd && counts.count < 3 {
        guard let n: UInt32 = reader.integer() else { return nil }
        counts.append(Int(n))
      }
      func count(_ i: Int) -> Int { i < counts.count ? counts[i] : 0 }
      record = .snapshotEnd(channels: Int(channels), days: count(0), ids: count(1), forwards: count(2))
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
