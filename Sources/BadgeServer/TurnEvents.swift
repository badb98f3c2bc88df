import BadgeCore
import BadgeProtocol

/// The events of a turn, in order, each encoded once, as it is staged: a channel's state after
/// a change, a pulse window's end or a reload, and do-not-disturb's state.
///
/// Their `EVENT` lines lie back to back in one buffer. At the end of the turn watchers are
/// given copies of these bytes (a run of them in one copy, when a watcher takes all of it), and
/// a reply that shows the same state, such as the requester's `STATE` line of a change, copies
/// them too with its own first word: a change's line is encoded once however many see it.
struct TurnEvents {
  struct Event {
    /// The channel's state, or `nil` for do-not-disturb's.
    let channel: Channel?
    /// Its line is `lines[lineStart..<lineEnd]`; empty when it was not encoded (no one
    /// watched as it was staged, so it goes only to the observer).
    let lineStart: Int
    let lineEnd: Int

    var isEncoded: Bool { lineEnd > lineStart }
  }

  private(set) var events: [Event] = []
  private(set) var lines: [UInt8] = []

  init() {
    events.reserveCapacity(256)
    lines.reserveCapacity(4096)
  }

  var count: Int { events.count }

  /// Stages `channel`'s event; its line, encoded with the turn's instant `now`, unless `now`
  /// is `nil`. Returns where the line is, when there is one.
  mutating func append(_ channel: Channel, encodedAt now: UInt64?) -> Range<Int>? {
    let start = lines.count
    if let now { ReplyEncoder.appendState(channel, kind: .event, now: now, to: &lines) }
    events.append(Event(channel: channel, lineStart: start, lineEnd: lines.count))
    return now == nil ? nil : start..<lines.count
  }

  /// Stages do-not-disturb's event, `dnd` at `now`. Returns where its line is.
  mutating func append(_ dnd: DoNotDisturb, at now: UInt64, stamp: DNDStamp? = nil) -> Range<Int> {
    let start = lines.count
    ReplyEncoder.appendDND(dnd, kind: .event, now: now, stamp: stamp, to: &lines)
    events.append(Event(channel: nil, lineStart: start, lineEnd: lines.count))
    return start..<lines.count
  }

  /// Appends the staged line at `range` to `out` as a reply line (`STATE …`).
  func appendReply(_ range: Range<Int>, to out: inout [UInt8]) {
    lines.withUnsafeBytes { ReplyEncoder.appendLine(UnsafeRawBufferPointer(rebasing: $0[range]), as: .state, to: &out) }
  }

  /// Empties the turn's events, keeping the buffers unless a burst made them large.
  mutating func removeAll() {
    events.removeAll(keepingCapacity: events.capacity <= 4096)
    lines.removeAll(keepingCapacity: lines.capacity <= 1 << 20)
  }
}
