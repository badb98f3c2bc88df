import BadgeCore

/// What an `exec` source's command printed, read as a count.
///
/// A count is decimal digits alone (leading zeros allowed), with spaces, tabs and a `\r`
/// around them ignored, from 0 to the daemon's largest count (`ChannelWrite.counts`,
/// 2,147,483,647). Everything else is refused with the line quoted: a sign (`-3`, `+3`), an
/// exponent or a point (`1e9`, `2.0`), a number past the largest (`99999999999`), words. The
/// quote holds at most `maxQuotedBytes` bytes of the line (then `…`), each byte outside
/// printable ASCII, and `\` and `'`, escaped (`\xff`, `\\`, `\'`), so that it stays one line
/// of plain text in a log, a status line and `badgectl sources`, whatever the command printed.
public enum CountLine {
  /// The most bytes of a refused line that its message quotes.
  public static let maxQuotedBytes = 64
  /// The most an interval command may print on stdout in one run.
  public static let maxRunOutput = 4096
  /// The longest line a followed command may print.
  public static let maxFollowLine = 256

  /// Why output gave no count; `description` follows `error: ` in a source's state.
  public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line that is no count, quoted and escaped.
    case notACount(quoted: String)
    /// An interval run printed only empty lines, or nothing.
    case noCount
    /// An interval run printed more than `maxRunOutput` bytes, or a followed command a line
    /// longer than `maxFollowLine`: it is stopped, and costs no more than that.
    case tooMuch(bytes: Int, what: String)

    public var description: String {
      switch self {
      case .notACount(let quoted): return "not a count: '\(quoted)'"
      case .noCount: return "printed no count"
      case .tooMuch(let bytes, let what): return "printed more than \(bytes) bytes \(what)"
      }
    }

    static let tooMuchInARun = Refusal.tooMuch(bytes: maxRunOutput, what: "in a run")
    static let tooLongALine = Refusal.tooMuch(bytes: maxFollowLine, what: "in a line")
  }

  /// The count one line holds.
  public static func count(_ line: some Collection<UInt8>) -> Result<Int, Refusal> {
    let trimmed = line.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
    guard let value = DecimalParser.parse(trimmed), ChannelWrite.counts.contains(value) else {
      return .failure(.notACount(quoted: quote(line)))
    }
    return .success(value)
  }

  /// The count of an interval run's whole stdout: its last line that is not blank.
  public static func count(ofRun output: [UInt8]) -> Result<Int, Refusal> {
    guard output.count <= maxRunOutput else { return .failure(.tooMuchInARun) }
    let lines = output.split(separator: 0x0A, omittingEmptySubsequences: true)
    guard let last = lines.last(where: { !$0.allSatisfy(isBlank) }) else { return .failure(.noCount) }
    return count(last)
  }

  /// `bytes` as a message quotes them: the first `maxQuotedBytes`, escaped, `…` when cut.
  public static func quote(_ bytes: some Collection<UInt8>) -> String {
    var text = ""
    for byte in bytes.prefix(maxQuotedBytes) {
      switch byte {
      case UInt8(ascii: "\\"): text += "\\\\"
      case UInt8(ascii: "'"): text += "\\'"
      case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16)
        text += "\\x" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    return bytes.count > maxQuotedBytes ? text + "…" : text
  }

  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
}

/// A followed command's stdout cut into lines as it comes, each read as a count.
///
/// Blank lines are skipped (no reading); a line longer than `CountLine.maxFollowLine` is a
/// refusal, after which the command is to be stopped: nothing more is read.
public struct FollowLines: Sendable {
  private var partial: [UInt8] = []
  /// Whether a line was too long: the reader takes nothing more.
  public private(set) var overflowed = false

  public init() {}

  /// Reads the next bytes of the output: each complete line's count or refusal, in order.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Result<Int, CountLine.Refusal>] {
    var results: [Result<Int, CountLine.Refusal>] = []
    for byte in bytes where !overflowed {
      if byte == 0x0A {
        if !partial.allSatisfy(CountLine.isBlank) { results.append(CountLine.count(partial)) }
        partial.removeAll(keepingCapacity: true)
      } else if partial.count == CountLine.maxFollowLine {
        overflowed = true
        partial = []
        results.append(.failure(.tooLongALine))
      } else {
        partial.append(byte)
      }
    }
    return results
  }
}
