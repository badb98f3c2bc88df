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
  private static let okLine: [UInt8] = Array("OK\n".utf8)

  /// `STATE|EVENT <channel> count=<n> label=<text> dot=<0|1> pulse=<ms> muted=<0|1> seq=<n>`
  @inline(__always)
  public static func appendState(_ channel: Channel, kind: StateKind, now: UInt64, to out: inout [UInt8]) {
    out.append(contentsOf: kind.prefix)
    channel.name.withBytes { out.append(contentsOf: $0) }
    out.append(contentsOf: countKey)
    DecimalFormatter.append(channel.count, to: &out)
    out.append(contentsOf: labelKey)
    Label.append(count: channel.count, settings: channel.settings, to: &out)
    out.append(contentsOf: dotKey)
    out.append(channel.settings.style == .dot ? 0x31 : 0x30)
    out.append(contentsOf: pulseKey)
    DecimalFormatter.append(channel.pulseLeftMs(at: now), to: &out)
    out.append(contentsOf: mutedKey)
    out.append(channel.settings.muted ? 0x31 : 0x30)
    out.append(contentsOf: seqKey)
    DecimalFormatter.append(channel.seq, to: &out)
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
    // A message never spans lines.
    for byte in error.message.utf8 { out.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
    out.append(0x0A)
  }

  /// A free-form data line (`HELLO`'s `badged <version> protocol=1`).
  public static func appendData(_ text: String, to out: inout [UInt8]) {
    out.append(contentsOf: text.utf8)
    out.append(0x0A)
  }
}
