import BadgeLog

/// What one hook run prints, cut into lines for the daemon's log, within a cap: a hook that
/// prints without end must cost the log a few lines, not fill it.
///
/// The first `maxLines` lines are logged, each cut at `maxLineBytes` (a cut line ends in
/// `…`); the lines after them are only counted (`dropped`), and the caller reports the count
/// when the run ends. A line that starts with `<N>` (N from 0 to 7) is logged at that
/// priority, without the prefix, as journald reads a service's output; others at `info`.
///
/// Pure: the caller reads the run's pipe and feeds the bytes as they come.
public struct HookOutputLines: Sendable {
  /// Lines logged per run.
  public static let maxLines = 32
  /// Bytes kept of one line.
  public static let maxLineBytes = 1024

  /// The line being read, up to `maxLineBytes`.
  private var partial: [UInt8] = []
  /// Whether the line being read was longer than `maxLineBytes` (its end is not kept).
  private var cut = false
  /// Whether any byte of the line being read has come.
  private var started = false
  /// Lines handed to the log so far.
  public private(set) var logged = 0
  /// Lines past `maxLines`, not logged.
  public private(set) var dropped = 0

  public init() {}

  /// Reads `bytes`, the next part of the output, and hands each complete line that is to be
  /// logged to `line`, with its priority.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ line: (Logger.Level, String) -> Void) {
    var start = 0
    var end = 0
    while end < bytes.count {
      if bytes[end] == 0x0A {
        keep(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        started = true
        endLine(line)
        start = end + 1
      }
      end += 1
    }
    keep(UnsafeRawBufferPointer(rebasing: bytes[start...]))
  }

  /// The output ended: a last line without its line feed is handed on too.
  public mutating func finish(_ line: (Logger.Level, String) -> Void) {
    if started { endLine(line) }
  }

  private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    started = true
    guard logged < HookOutputLines.maxLines else { return }
    let room = HookOutputLines.maxLineBytes - partial.count
    if bytes.count > room { cut = true }
    partial.append(contentsOf: bytes.prefix(room))
  }

  private mutating func endLine(_ line: (Logger.Level, String) -> Void) {
    defer {
      partial.removeAll(keepingCapacity: true)
      cut = false
      started = false
    }
    guard logged < HookOutputLines.maxLines else {
      dropped += 1
      return
    }
    logged += 1
    var level = Logger.Level.info
    var text = partial[...]
    if text.count >= 3, text[text.startIndex] == UInt8(ascii: "<"), text[text.startIndex + 2] == UInt8(ascii: ">"),
      let priority = Logger.Level(rawValue: Int(text[text.startIndex + 1]) - Int(UInt8(ascii: "0")))
    {
      level = priority
      text = text.dropFirst(3)
    }
    line(level, String(decoding: text, as: UTF8.self) + (cut ? "…" : ""))
  }
}
