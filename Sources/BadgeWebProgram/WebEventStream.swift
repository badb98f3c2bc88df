import BadgeCore
import BadgeWeb

/// One client's `GET /events`: a cursor on the feed's ring, the bytes taken from it that the
/// connection has not yet taken, and what it started with (`retry:`, then the snapshot or
/// nothing when it resumes).
///
/// A stream that fell behind the ring (its client read too slowly while the ring turned over)
/// gets `reset` and a fresh snapshot, then goes on at the ring's end: never a silent gap. A
/// keep-alive comment goes out when the runtime says one is due; then the token is checked
/// again, so a revoked token's stream ends there.
final class WebEventStream: EventStreamSource {
  private unowned let feed: WebFeed
  let patterns: [ChannelPattern]
  private(set) var cursor: UInt64
  private var pending: [UInt8]
  private var sent = 0
  private var keepAliveDue = false
  private let stillAllowed: () -> Bool
  private let ended: (WebEventStream) -> Void
  /// Changes the stream has already sent from badged's replay, which the feed had not taken
  /// yet when the stream began: their events in the ring are skipped (no id twice), while the
  /// ring stays in the epoch it began in.
  private var sentThrough: (seq: UInt64, epoch: UInt64)?

  /// - Parameters:
  ///   - start: what goes first (the `retry:` line and a snapshot, or replayed changes).
  ///   - cursor: where the stream reads on in the ring.
  ///   - sentThrough: the last change `start` holds, when the ring's changes up to it are to be
  ///     skipped (a replay ahead of the feed).
  ///   - stillAllowed: whether the stream's token is still valid (checked at each keep-alive).
  ///   - ended: the stream is over (the client went away, or the server stops).
  init(
    feed: WebFeed, patterns: [ChannelPattern], start: [UInt8], cursor: UInt64, sentThrough: UInt64? = nil,
    stillAllowed: @escaping () -> Bool, ended: @escaping (WebEventStream) -> Void
  ) {
    self.sentThrough = sentThrough.map { ($0, feed.ring.epochStart) }
    self.feed = feed
    self.patterns = patterns
    self.pending = start
    self.cursor = cursor
    self.stillAllowed = stillAllowed
    self.ended = ended
  }

  /// A keep-alive comment is due: sent when the stream has nothing else.
  func keepAlive() { keepAliveDue = true }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> EventStreamRead {
    if sent == pending.count { refill(upTo: buffer.count) }
    if sent == pending.count {
      guard keepAliveDue else { return .wait }
      keepAliveDue = false
      guard stillAllowed() else { return .end }
      pending = ServerSentEvent.keepAlive
      sent = 0
    }
    let count = min(buffer.count, pending.count - sent)
    pending.withUnsafeBytes { raw in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[sent..<sent + count]))
    }
    sent += count
    return .bytes(count)
  }

  func closed() { ended(self) }

  /// Takes the ring's next entries (those of the stream's channels) into `pending`.
  private func refill(upTo maxBytes: Int) {
    if let skip = sentThrough, skip.epoch != feed.ring.epochStart { sentThrough = nil }
    let read: EventRing.Read
    if let skip = sentThrough?.seq {
      read = feed.ring.read(from: cursor, upTo: maxBytes) { [patterns] entry in
        if entry.isChange && entry.key <= skip { return false }
        guard let channel = entry.channel, !patterns.isEmpty else { return true }
        return patterns.contains { $0.matches(channel) }
      }
    } else {
      read = feed.ring.read(from: cursor, upTo: maxBytes, patterns: patterns)
    }
    switch read {
    case .events(let bytes, let next):
      pending = bytes
      cursor = next
    case .fellBehind:
      pending = feed.state.resetEvents(reason: "gap", patterns: patterns)
      cursor = feed.ring.end
    }
    sent = 0
  }
}
