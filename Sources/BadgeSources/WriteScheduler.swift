/// The request ids of badged-sources' writes: `src-<8 hex>:<n>`, the hex drawn at the
/// program's start (from `getrandom`, by the shell) and `n` counting up, so that ids are unique
/// across restarts of the program and a write sent again after a reconnect counts once.
public struct SourceRequestIDs: Sendable {
  /// `src-<8 hex>`.
  public let prefix: String
  private var counter = 0

  public init(random: UInt32) {
    let hex = String(random, radix: 16)
    prefix = "src-" + String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// The next id.
  public mutating func next() -> String {
    counter += 1
    return "\(prefix):\(counter)"
  }
}

/// When one channel's writes go: one on its way at a time, the first at once (a lone delivery
/// is written in the loop turn that read it), then at most one per `coalesce_ms`, carrying
/// everything since, so a burst of 10,000 deliveries over two seconds is some forty writes.
///
/// The choices the design left open, made here: the interval runs from the last write *sent*
/// (sent again counts as sent); a write that got no answer before the connection closed stays
/// on its way and is the first thing sent on the next connection (`resend`), unchanged, with
/// its id, and the channel's next write waits for its answer. Times are monotonic
/// microseconds.
public struct WriteScheduler<Write: Equatable & Sendable>: Sendable {
  /// The least time between two writes, in microseconds.
  public let interval: UInt64
  /// The write on its way, and its request id.
  public private(set) var inFlight: (id: String, write: Write)?
  private var lastSentAt: UInt64?

  public init(coalesceMs: Int) { interval = UInt64(coalesceMs) * 1000 }

  /// What to do with a change to write at `now`.
  public enum Decision: Equatable, Sendable {
    /// Write it now.
    case send
    /// Arm a timer: not before this time.
    case wait(until: UInt64)
    /// A write is on its way: decide again on its answer.
    case busy
  }

  public func decide(now: UInt64) -> Decision {
    guard inFlight == nil else { return .busy }
    guard let lastSentAt, now < lastSentAt + interval else { return .send }
    return .wait(until: lastSentAt + interval)
  }

  /// `write` went out with `id` at `now`.
  public mutating func sent(_ write: Write, id: String, now: UInt64) {
    inFlight = (id, write)
    lastSentAt = now
  }

  /// The daemon answered `id`: the write it was, or `nil` when it is not the one on its way
  /// (an answer from before a reconnect, already counted).
  public mutating func answered(id: String) -> Write? {
    guard let inFlight, inFlight.id == id else { return nil }
    self.inFlight = nil
    return inFlight.write
  }

  /// On a new connection, the write to send first: the one that got no answer, unchanged.
  public mutating func resend(now: UInt64) -> (id: String, write: Write)? {
    guard let inFlight else { return nil }
    lastSentAt = now
    return inFlight
  }
}
