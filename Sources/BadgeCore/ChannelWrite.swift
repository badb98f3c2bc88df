/// One write to a channel: what a client asks of a channel's count, its unseen items, its
/// `muted` setting or its pulse window.
///
/// It is the one form of a write wherever it goes: a parsed request (BadgeProtocol's
/// `Request.write`), the store's mutation (`Store.Mutation.write`), a write waiting in the
/// forward outbox for a mirrored channel's owner (`ForwardEntry`), and a command between
/// machines (BadgeMesh's `ChannelCommand`). Its protocol line and its JSON are spelled where
/// those are (BadgeProtocol's `RequestEncoder`, BadgeMesh's payloads); this type names no word
/// of either.
///
/// The ranges are the protocol's; the parsers and decoders that make a write hold to them, so
/// a write never carries a value the store would have to refuse for its form alone.
public enum ChannelWrite: Equatable, Hashable, Sendable {
  /// Adds `n` (1 … `Limits.maxCount`) to the count, and starts the pulse window.
  case incr(Int)
  /// Takes `n` (1 … `Limits.maxCount`) from the count; it stops at 0.
  case decr(Int)
  /// Sets the count to `n` (0 … `Limits.maxCount`): a rise counts as arrivals.
  case set(Int)
  /// A source's report (`SET <channel> <count> new=<arrived> [unseen=<u>]`): the count is
  /// `count` (0 … `Limits.maxCount`), of which `arrived` (0 … `Limits.maxCount`) items are new
  /// since the source's last report. `max(arrived, count − the count before)` items are
  /// arrivals: they raise the total and `unseen` (which never passes the count) and start the
  /// pulse window, so a turn in which one item is read and one arrives still pulses. With
  /// `unseen`, the source says how many of its unseen items are still unread: the channel
  /// keeps at most that many (a stale figure can only be too high, so a click racing the
  /// report is never undone).
  case report(count: Int, arrived: Int, unseen: Int?)
  /// Clears the items up to the running total `upTo` (0 or more), so the count keeps only
  /// those that came after it; `nil`: every item.
  case clear(upTo: Int?)
  /// Marks the items up to the running total `upTo` (0 or more) seen, so `unseen` keeps only
  /// those that came after it; `nil`: every item. The count stays.
  case seen(upTo: Int?)
  /// Mutes the channel: it keeps counting but never pulses.
  case mute
  case unmute
  /// Starts or extends the pulse window for `ms` (1 … `Limits.pulseMs.upperBound`), or for the
  /// channel's `pulse_ms` (`nil`), without changing the count. Not a change of the store:
  /// `Store.pulse` starts the window (`Store.forwardPulse` hands a mirrored channel's to its
  /// owner).
  case pulse(ms: Int?)

  /// The amounts `incr` and `decr` take.
  public static let amounts = 1...Limits.maxCount
  /// The counts `set` takes.
  public static let counts = 0...Limits.maxCount
  /// The window lengths `pulse` takes: up to the longest `pulse_ms`; 0 would not pulse.
  public static let pulseLengths = 1...Limits.pulseMs.upperBound

  /// The write as a mirrored channel forwards it to its owner: a clear or a sight of every
  /// item becomes one up to `total`, the running total shown here when it was made, so that
  /// the owner takes none of the items that arrived there after it (`Int.max`, what an `upto=`
  /// past any number reads as, counts as every item too). Other writes go as they are.
  public func forwarded(shownTotal total: Int) -> ChannelWrite {
    switch self {
    case .clear(let upTo) where upTo == nil || upTo == .max: return .clear(upTo: total)
    case .seen(let upTo) where upTo == nil || upTo == .max: return .seen(upTo: total)
    default: return self
    }
  }
}
