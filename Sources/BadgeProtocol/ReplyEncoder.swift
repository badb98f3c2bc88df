import BadgeCore

/// Writes reply and event lines into an output buffer, as bytes.
///
/// Every line a server sends is built here, so the wire format lives in one place.
public enum ReplyEncoder {
  /// Which kind of line describes a channel.
  public enum StateKind: Sendable {
    /// A reply data line: `STATE …`.
    case state
    /// A pushed change: `EVENT …`.
    case event

    var prefix: StaticString {
      switch self {
      case .state: return "STATE "
      case .event: return "EVENT "
      }
    }
  }

  /// The longest state line: its keys (about 120 bytes), a name of at most 64 and numbers of at
  /// most 20 digits, with room to spare.
  static let maxStateLine = 480
  private static let okLine: [UInt8] = Array("OK\n".utf8)

  /// `STATE|EVENT <channel> count=<n> label=<text> dot=<0|1> pulse=<ms> muted=<0|1> seq=<n>
  /// badge=<count|unseen> dnd=<off|hide|dim|show> unseen=<n>[ step=<n>] total=<n>`
  ///
  /// `step` comes only when it is not 1, so the lines of channels that never set it read as they
  /// did before the setting existed. The running total comes last, always: it is what a client
  /// clears up to. The line is written on the stack and appended in one copy (`ByteWriter`).
  @inline(__always)
  public static func appendState(_ channel: Channel, kind: StateKind, now: UInt64, to out: inout [UInt8]) {
    out.appendWritten(maxLength: maxStateLine) { line in
      line.write(kind.prefix)
      channel.name.withBytes { line.write($0) }
      line.write(" count=")
      line.write(decimal: channel.count)
      line.write(" label=")
      Label.write(count: channel.count, unseen: channel.unseen, settings: channel.settings, to: &line)
      line.write(channel.settings.style == .dot ? " dot=1" : " dot=0")
      line.write(" pulse=")
      line.write(decimal: channel.pulseLeftMs(at: now))
      line.write(channel.settings.muted ? " muted=1" : " muted=0")
      line.write(" seq=")
      line.write(decimal: channel.seq)
      line.write(badgeKey(channel.settings.badge))
      line.write(dndKey(channel.silenced))
      line.write(" unseen=")
      line.write(decimal: channel.unseen)
      if channel.settings.step != 1 {
        line.write(" step=")
        line.write(decimal: channel.settings.step)
      }
      line.write(" total=")
      line.write(decimal: channel.total)
      if channel.isMirrored, let mirror = channel.mirror { appendMirror(mirror, to: &line) }
      if channel.isSourced, let source = channel.source { appendSource(source, to: &line) }
      line.write(0x0A)
    }
  }

  /// ` owner=<host> stale=<0|1>[ since=<unix s>][ pending=1]`: what ends a mirrored channel's
  /// line (a local channel's has none of it). `since` only while stale, `pending` only while
  /// writes made here wait for the owner.
  static func appendMirror(_ mirror: MirrorState, to line: inout ByteWriter) {
    line.write(" owner=")
    var owner = mirror.owner
    owner.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
    line.write(mirror.stale ? " stale=1" : " stale=0")
    if mirror.stale {
      line.write(" since=")
      line.write(decimal: mirror.since)
    }
    if mirror.pending { line.write(" pending=1") }
  }

  /// ` source=<name> stale=<0|1>[ since=<unix s>]`: what ends the line of a channel a source
  /// counts (no other channel's line has it, so theirs read as before sources existed). `since`
  /// only while stale and known.
  static func appendSource(_ source: SourceMark, to line: inout ByteWriter) {
    line.write(" source=")
    var name = source.name
    name.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
    line.write(source.stale ? " stale=1" : " stale=0")
    if source.stale, let since = source.since {
      line.write(" since=")
      line.write(decimal: since)
    }
  }

  /// `CLEARED <channel> upto=<total>`: pushed to the sources connection when a channel whose
  /// source marks read on a clear (`on_clear=mark-read`) was cleared up to a running total.
  public static func appendCleared(_ name: ChannelName, upTo total: Int, to out: inout [UInt8]) {
    out.appendWritten(maxLength: 128) { line in
      line.write("CLEARED ")
      name.withBytes { line.write($0) }
      line.write(" upto=")
      line.write(decimal: total)
      line.write(0x0A)
    }
  }

  /// `RELOADED`: pushed to the sources connection after a reload of the daemon's config.
  public static func appendReloaded(to out: inout [UInt8]) {
    out.append(contentsOf: "RELOADED\n".utf8)
  }

  /// `FORWARD <id> <request line>`: a write to a mirrored channel for the bridge to deliver to
  /// its owner, in the reply to `FORWARDS` and pushed to the bridge as each is taken. The line is
  /// the write's (`RequestEncoder`), with its id when it takes one.
  public static func appendForward(_ entry: ForwardEntry, to out: inout [UInt8]) {
    let request = Request.write(entry.channel, entry.write)
    out.appendWritten(maxLength: 10 + entry.id.utf8.count + RequestEncoder.room(request, id: entry.id)) { line in
      line.write("FORWARD ")
      var id = entry.id
      id.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
      line.write(0x20)
      RequestEncoder.write(request, id: entry.id, to: &line)
      line.write(0x0A)
    }
  }

  /// ` badge=<count|unseen>`: the setting's raw value (`ReplyEncoderTests` holds them equal).
  static func badgeKey(_ badge: BadgeCounts) -> StaticString {
    switch badge {
    case .count: return " badge=count"
    case .unseen: return " badge=unseen"
    }
  }

  /// ` dnd=<off|hide|dim|show>`: `off` when not silenced, else the raw value of how it shows.
  static func dndKey(_ silenced: DNDBadges?) -> StaticString {
    switch silenced {
    case nil: return " dnd=off"
    case .hide: return " dnd=hide"
    case .dim: return " dnd=dim"
    case .show: return " dnd=show"
    }
  }

  /// `STATE|EVENT * dnd=<0|1> left=<ms>`: the daemon-wide do-not-disturb state, on the line of
  /// the `*` that stands for every channel (no channel name can be `*`).
  ///
  /// Once do-not-disturb has changed, the line ends with when (` at=<unix ms>`), and, when the
  /// change came from another machine (`DND … from= at=`), where first (` from=<host>`): so a
  /// bridge tells a change of this machine's from another's, and one made while it was away
  /// from one it published already.
  public static func appendDND(
    _ dnd: DoNotDisturb, kind: StateKind, now: UInt64, stamp: DNDStamp? = nil, to out: inout [UInt8]
  ) {
    out.appendWritten(maxLength: 160) { line in
      line.write(kind.prefix)
      line.write(dnd.isOn ? "* dnd=1" : "* dnd=0")
      line.write(" left=")
      line.write(decimal: dnd.leftMs(at: now))
      if let stamp {
        if stamp.remote {
          line.write(" from=")
          var host = stamp.host
          host.withUTF8 { line.write(UnsafeRawBufferPointer($0)) }
        }
        line.write(" at=")
        line.write(decimal: Int(clamping: stamp.at))
      }
      line.write(0x0A)
    }
  }

  /// A state or do-not-disturb line encoded as one kind, appended as `kind`: the same bytes
  /// with the first word replaced (`STATE ` and `EVENT ` are both six bytes), so that the
  /// reply and the event of one change share one encoding.
  @inline(__always)
  public static func appendLine(_ line: UnsafeRawBufferPointer, as kind: StateKind, to out: inout [UInt8]) {
    let prefix = kind.prefix
    precondition(line.count > prefix.utf8CodeUnitCount, "a state line")
    out.append(contentsOf: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[prefix.utf8CodeUnitCount...]))
  }

  /// `OK`
  @inline(__always)
  public static func appendOK(to out: inout [UInt8]) {
    out.append(contentsOf: okLine)
  }

  /// `OK repeated`: the status of a request whose id was saved with it already, answered with
  /// the state as it is now and carried out no second time. Clients that know no more read an
  /// `OK` (its text is informative); a client that forwards changes learns the first try
  /// counted.
  public static func appendRepeated(to out: inout [UInt8]) {
    appendOK(RequestLine.repeatedText, to: &out)
  }

  /// `OK <text>`
  public static func appendOK(_ text: String, to out: inout [UInt8]) {
    out.append(contentsOf: "OK ".utf8)
    out.append(contentsOf: text.utf8)
    out.append(0x0A)
  }

  /// `ERR <code> <message>`
  public static func appendError(_ error: ProtocolError, to out: inout [UInt8]) {
    out.append(contentsOf: "ERR ".utf8)
    out.append(contentsOf: error.code.rawValue.utf8)
    out.append(0x20)
    appendEscaped(error.message, to: &out)
    out.append(0x0A)
  }

  /// Writes `text` with every control character escaped, so that a message quoting a request
  /// never spans lines and never carries bytes a terminal acts on (ESC, NUL, the C1 controls
  /// such as CSI): C0 controls and DEL as `\xNN`, C1 controls as `\u00NN`, and the backslash
  /// itself as `\\`, so that the escaped text reads back unambiguously.
  static func appendEscaped(_ text: String, to out: inout [UInt8]) {
    var bytes = text.utf8.makeIterator()
    var pending: UInt8? = nil
    while let byte = pending ?? bytes.next() {
      pending = nil
      switch byte {
      case 0x00..<0x20, 0x7F: appendHexEscape(prefix: "\\x", byte, to: &out)
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0xC2:
        // U+0080 to U+009F are C2 80 to C2 9F in UTF-8.
        guard let next = bytes.next() else {
          out.append(byte)
          continue
        }
        if next >= 0x80 && next <= 0x9F {
          appendHexEscape(prefix: "\\u00", next, to: &out)
        } else {
          out.append(byte)
          pending = next
        }
      default: out.append(byte)
      }
    }
  }

  private static func appendHexEscape(prefix: StaticString, _ byte: UInt8, to out: inout [UInt8]) {
    let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
    out.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
    out.append(digits[Int(byte >> 4)])
    out.append(digits[Int(byte & 0x0F)])
  }

  /// A free-form data line (`HELLO`'s `badged <version> protocol=1`).
  public static func appendData(_ text: String, to out: inout [UInt8]) {
    out.append(contentsOf: text.utf8)
    out.append(0x0A)
  }
}
