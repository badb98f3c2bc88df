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

    var prefix: [UInt8] {
      switch self {
      case .state: return ReplyEncoder.statePrefix
      case .event: return ReplyEncoder.eventPrefix
      }
    }
  }

  static let statePrefix: [UInt8] = Array("STATE ".utf8)
  static let eventPrefix: [UInt8] = Array("EVENT ".utf8)
  private static let countKey: [UInt8] = Array(" count=".utf8)
  private static let labelKey: [UInt8] = Array(" label=".utf8)
  private static let dotKey: [UInt8] = Array(" dot=".utf8)
  private static let pulseKey: [UInt8] = Array(" pulse=".utf8)
  private static let mutedKey: [UInt8] = Array(" muted=".utf8)
  private static let seqKey: [UInt8] = Array(" seq=".utf8)
  private static let badgeKeys: [[UInt8]] = BadgeCounts.allCases.map { Array(" badge=\($0.rawValue)".utf8) }
  private static let dndKeys: [[UInt8]] = [Array(" dnd=off".utf8)] + DNDBadges.allCases.map { Array(" dnd=\($0.rawValue)".utf8) }
  private static let unseenKey: [UInt8] = Array(" unseen=".utf8)
  private static let stepKey: [UInt8] = Array(" step=".utf8)
  private static let everyChannel: [UInt8] = Array("* dnd=".utf8)
  private static let leftKey: [UInt8] = Array(" left=".utf8)
  private static let okLine: [UInt8] = Array("OK\n".utf8)

  /// `STATE|EVENT <channel> count=<n> label=<text> dot=<0|1> pulse=<ms> muted=<0|1> seq=<n>
  /// badge=<count|unseen> dnd=<off|hide|dim|show> unseen=<n>[ step=<n>]`
  ///
  /// `step` comes only when it is not 1, so the lines of channels that never set it stay as
  /// they were before the setting existed.
  @inline(__always)
  public static func appendState(_ channel: Channel, kind: StateKind, now: UInt64, to out: inout [UInt8]) {
    out.append(contentsOf: kind.prefix)
    channel.name.withBytes { out.append(contentsOf: $0) }
    out.append(contentsOf: countKey)
    DecimalFormatter.append(channel.count, to: &out)
    out.append(contentsOf: labelKey)
    Label.append(count: channel.count, unseen: channel.unseen, settings: channel.settings, to: &out)
    out.append(contentsOf: dotKey)
    out.append(channel.settings.style == .dot ? 0x31 : 0x30)
    out.append(contentsOf: pulseKey)
    DecimalFormatter.append(channel.pulseLeftMs(at: now), to: &out)
    out.append(contentsOf: mutedKey)
    out.append(channel.settings.muted ? 0x31 : 0x30)
    out.append(contentsOf: seqKey)
    DecimalFormatter.append(channel.seq, to: &out)
    out.append(contentsOf: badgeKeys[channel.settings.badge == .count ? 0 : 1])
    out.append(contentsOf: dndKeys[channel.silenced.map { DNDBadges.allCases.firstIndex(of: $0)! + 1 } ?? 0])
    out.append(contentsOf: unseenKey)
    DecimalFormatter.append(channel.unseen, to: &out)
    if channel.settings.step != 1 {
      out.append(contentsOf: stepKey)
      DecimalFormatter.append(channel.settings.step, to: &out)
    }
    out.append(0x0A)
  }

  /// `STATE|EVENT * dnd=<0|1> left=<ms>`: the daemon-wide do-not-disturb state, on the line of
  /// the `*` that stands for every channel (no channel name can be `*`).
  public static func appendDND(_ dnd: DoNotDisturb, kind: StateKind, now: UInt64, to out: inout [UInt8]) {
    out.append(contentsOf: kind.prefix)
    out.append(contentsOf: everyChannel)
    out.append(dnd.isOn ? 0x31 : 0x30)
    out.append(contentsOf: leftKey)
    DecimalFormatter.append(dnd.leftMs(at: now), to: &out)
    out.append(0x0A)
  }

  /// `OK`
  @inline(__always)
  public static func appendOK(to out: inout [UInt8]) {
    out.append(contentsOf: okLine)
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
