import BadgeCore

/// A write this machine's daemon took for a channel another machine owns, on its way to the
/// owner.
public struct ForwardedWrite: Equatable, Sendable {
  public var id: String
  public var channel: ChannelName
  public var command: ChannelCommand
  /// When it was last sent (monotonic microseconds); `nil` while it waits to be sent.
  public var sentAt: UInt64?

  public init(id: String, channel: ChannelName, command: ChannelCommand, sentAt: UInt64? = nil) {
    self.id = id
    self.channel = channel
    self.command = command
    self.sentAt = sentAt
  }
}

/// The delivery of forwarded writes: in the daemon's outbox order, each sent until its owner
/// answers, and answers matched by their correlation data (the request id).
///
/// The daemon keeps every write durably until the bridge says `DELIVERED`, so this queue is
/// only what the bridge knows of it now: filled from `FORWARDS` on each connection to the
/// daemon, emptied when that connection ends. A channel's writes go in its `window`: the
/// first, and when it is an increment, the increments right after it (up to `maxInFlight`);
/// the rest wait for their answers. An owner can miss a write it was sent (its subscriptions
/// made anew after the broker lost them, part way through a burst; a command it had to drop;
/// libmosquitto sending a dead connection's messages again on the next) and get it only when
/// it is sent again: increments carried out in another order give the same count, but had a
/// clear (or any other write) gone out with them, its watermark could take an increase made
/// after it. The window is sent once per broker connection (the broker keeps QoS 1 messages
/// for an owner that is away for as long as its session lasts), sent again when its owner
/// comes back online, and sent again when no answer came for `retryInterval` (which doubles
/// while nothing is answered, up to `maxRetryInterval`). Redelivery is harmless: the owner's
/// daemon counts a request id once.
///
/// What holds after every input (asserted by ForwardInvariantTests after each step of random
/// runs): each write the daemon handed over on this connection is here until its owner
/// answered it, and then the daemon is told `DELIVERED` (whether or not its greeting is over);
/// while the broker is synced, every write of each channel's window is on its way with a retry
/// armed (`nextRetry`), and every other write waits behind them. So no write waits for nothing:
/// it is answered, or sent again when its owner comes back or its retry is due.
public struct ForwardQueue: Sendable {
  public private(set) var writes: [ForwardedWrite] = []
  private var ids: Set<String> = []
  /// How many writes on their way were sent at each time: `nextRetry` looks at these (at most
  /// the windows' writes), not at every write, since it is asked after every input.
  private var sendTimes: [UInt64: Int] = [:]
  /// Microseconds.
  public let firstRetryInterval: UInt64
  public let maxRetryInterval: UInt64
  public private(set) var retryInterval: UInt64

  public init(firstRetryInterval: UInt64 = 30_000_000, maxRetryInterval: UInt64 = 900_000_000) {
    self.firstRetryInterval = firstRetryInterval
    self.maxRetryInterval = maxRetryInterval
    retryInterval = firstRetryInterval
  }

  public var count: Int { writes.count }

  /// How many increments of one channel may be on their way at once. One write at a time made
  /// every write wait a whole round trip through the broker (two bridges, the owner's daemon):
  /// a backlog of thousands took minutes to drain.
  public static let maxInFlight = 256

  /// Adds a write at the end (a write already known, listed again, is ignored); whether it
  /// was new.
  @discardableResult
  public mutating func add(_ write: ForwardedWrite) -> Bool {
    guard ids.insert(write.id).inserted else { return false }
    var write = write
    write.sentAt = nil
    writes.append(write)
    return true
  }

  /// The writes to send at `now`, each in its channel's `window`: those never sent, plus
  /// (`again`) those whose channel `again` picks, in queue order. They count as sent at `now`.
  public mutating func toSend(now: UInt64, again: (ChannelName) -> Bool = { _ in false }) -> [ForwardedWrite] {
    send(now) { $0.sentAt == nil || again($0.channel) }
  }

  /// The writes of `channel` in its window that wait to be sent (those after a write just
  /// answered, or a new write of a channel with room in its window), marked sent at `now`.
  public mutating func toSend(in channel: ChannelName, now: UInt64) -> [ForwardedWrite] {
    send(now, only: channel) { $0.sentAt == nil }
  }

  /// Whether `write` may be on its way together with the writes of its channel before it:
  /// increments, which the owner may carry out in any order with the same result.
  private static func travelsTogether(_ write: ForwardedWrite) -> Bool {
    if case .incr = write.command.write { return true }
    return false
  }

  /// The writes of each channel that may be on its way now, in queue order: the first, and
  /// when it is an increment, the increments that follow it without a break, up to
  /// `maxInFlight`. Every other write waits for the answers to those before it.
  public var window: [ForwardedWrite] { windowIndices().map { writes[$0] } }

  /// Where the writes of the window are; of `only` that channel's (the scan ends with its
  /// window, so an answer costs no walk of a long queue).
  private func windowIndices(only: ChannelName? = nil) -> [Int] {
    var taken: [ChannelName: Int] = [:]
    var closed: Set<ChannelName> = []
    var out: [Int] = []
    for index in writes.indices {
      let write = writes[index]
      if let only, write.channel != only { continue }
      guard !closed.contains(write.channel) else { continue }
      let count = taken[write.channel, default: 0]
      if count > 0 && (!Self.travelsTogether(write) || count >= Self.maxInFlight) {
        closed.insert(write.channel)
        if only != nil { break }
        continue
      }
      taken[write.channel] = count + 1
      out.append(index)
      if !Self.travelsTogether(write) { closed.insert(write.channel) }
      if let only, closed.contains(only) { break }
    }
    return out
  }

  /// The writes of each channel's window that `pick` picks, in order, marked sent at `now`.
  private mutating func send(
    _ now: UInt64, only: ChannelName? = nil, _ pick: (ForwardedWrite) -> Bool
  ) -> [ForwardedWrite] {
    var out: [ForwardedWrite] = []
    for index in windowIndices(only: only) where pick(writes[index]) {
      if let before = writes[index].sentAt { forgetSend(at: before) }
      writes[index].sentAt = now
      sendTimes[now, default: 0] += 1
      out.append(writes[index])
    }
    return out
  }

  private mutating func forgetSend(at time: UInt64) {
    let left = (sendTimes[time] ?? 1) - 1
    sendTimes[time] = left > 0 ? left : nil
  }

  /// Every write counts as not sent: the broker connection is new.
  public mutating func markAllUnsent() {
    for index in writes.indices { writes[index].sentAt = nil }
    sendTimes.removeAll()
  }

  /// What an answer means for the write it answers.
  public enum Outcome: Equatable, Sendable {
    /// Applied, or refused for good (`refusal`: the owner's error): tell the daemon.
    case delivered(ForwardedWrite, refusal: String?)
    /// Refused for now (the owner could not save): sent again after the retry interval.
    case retry(ForwardedWrite, reason: String)
    /// No such write waits (answered before, or not this machine's).
    case unknown
  }

  /// The owner's answer to the write `id`. Once it is delivered, the writes of its channel
  /// that come into the window go (`toSend(in:now:)`).
  public mutating func answered(_ id: String, _ answer: CommandAnswer) -> Outcome {
    guard let index = writes.firstIndex(where: { $0.id == id }) else { return .unknown }
    retryInterval = firstRetryInterval
    if answer.code == "failed" {
      return .retry(writes[index], reason: answer.error ?? "")
    }
    let write = writes.remove(at: index)
    ids.remove(id)
    if let sentAt = write.sentAt { forgetSend(at: sentAt) }
    return .delivered(write, refusal: answer.error)
  }

  /// When writes unanswered since their last send are due to be sent again; `nil` when none
  /// waits for an answer.
  public var nextRetry: UInt64? {
    sendTimes.keys.min().map { $0 + retryInterval }
  }

  /// The writes to send again at `now` because their answers are overdue, in order. The
  /// interval then doubles.
  public mutating func overdue(now: UInt64) -> [ForwardedWrite] {
    guard let due = nextRetry, now >= due else { return [] }
    let late = Set(writes.filter { $0.sentAt.map { $0 + retryInterval <= now } ?? false }.map(\.channel))
    retryInterval = min(retryInterval * 2, maxRetryInterval)
    return send(now) { late.contains($0.channel) }
  }

  /// Forgets everything: the daemon connection ended (the daemon lists it all again).
  public mutating func removeAll() {
    writes.removeAll()
    ids.removeAll()
    sendTimes.removeAll()
    retryInterval = firstRetryInterval
  }
}
