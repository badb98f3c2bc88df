import BadgeCore
import BadgeProtocol

/// A reply that may be too long for one turn (`LIST`, a `WATCH` snapshot or replay, `STATS`), carried by
/// its connection and produced a chunk at a time as the client reads it
/// (`CommandExecutor.startReply`, `continueReply`): what it shows, and how far it has got.
///
/// It keeps no lines and no list of every channel: only the name of the last channel shown and
/// the next batch of names after it (`NameBatches`), and, within a `STATS` reply, the figures
/// of the channel whose `DAY` lines are under way. Each line shows the channel as it is when
/// the line is produced (PROTOCOL.md, "Long replies"), but a replay's, which shows a change as
/// it was (its lines were taken when it began). A value: a reply that ends in its
/// request's turn, as most do, is never stored; one left under way is boxed (`PendingReply`).
struct ReplyStream {
  enum Kind {
    /// `LIST`: every listed channel.
    case list
    /// A `WATCH` snapshot: each channel the patterns name exactly, and each listed channel one
    /// of their globs matches (every listed channel without patterns); ends `OK watching`, or
    /// `OK watching reset` when it stands for a replay that could not be (`outcome`).
    case snapshot(ChannelPatternSet, WatchOutcome)
    /// `WATCH since=<seq>` replayed: the kept changes after `since` (`ReplyStream.changes`), in
    /// sequence order; ends `OK watching since=<seq>`.
    case replay(since: UInt64)
    /// `STATS`: the period ending on `today` (the request's day, for every channel of the
    /// reply), of each channel the patterns name exactly and each channel with history one of
    /// their globs matches (every channel with history without patterns).
    case stats(StatsPeriod, today: Int, ChannelPatternSet)
  }

  let kind: Kind
  /// The channels still to show, in name order, a batch at a time.
  var names = NameBatches()
  /// The channel whose `STATS` line was the last one produced, its figures, and its next `DAY`.
  var days: (stats: ChannelStats, next: Int)?
  /// A replay's changes still to show, each the channel as it was after its change: taken from
  /// `RecentChanges` when the reply began (at most its 1,024), so that changes made meanwhile,
  /// which may push the oldest out of the ring, cannot take a line from the reply; they come
  /// after it as the held events of a long reply do.
  var changes: ArraySlice<Channel> = []

  init(_ kind: Kind) {
    self.kind = kind
  }
}

/// A reply left under way, as its connection carries it (`Peer.reply`): boxed, so that asking
/// whether a connection has one, which the reader does for every request, costs one load.
final class PendingReply {
  var stream: ReplyStream

  init(_ stream: ReplyStream) {
    self.stream = stream
  }
}

/// Names handed out in ascending order from a set that may change meanwhile, a batch at a
/// time: each batch is the `batchSize` smallest names after the last one handed out, as the
/// set is when the batch is taken. A reply therefore keeps one batch of names, however many
/// there are, for a pass over the set every `batchSize` names.
struct NameBatches {
  static let batchSize = 512
  /// Stands for no name where a name is compared only behind a flag.
  private static let placeholder = ChannelName("0")!

  /// The last name handed out.
  private(set) var last: ChannelName?
  private var batch: [ChannelName] = []
  private var position = 0
  /// Whether the last batch taken held every name left.
  private var finished = false

  /// The next name, taking a batch from `candidates` (which calls its argument with each name
  /// of the set, in any order, each once) when the last one is used up; `nil` at the end.
  mutating func next(_ candidates: ((ChannelName) -> Void) -> Void) -> ChannelName? {
    if position == batch.count {
      if finished { return nil }
      refill(candidates)
      if batch.isEmpty { return nil }
    }
    let name = batch[position]
    position += 1
    last = name
    return name
  }

  /// Takes the `batchSize` smallest names after `last`: candidates are kept up to twice the
  /// batch, then sorted and cut to one batch, whose largest name bounds what is kept after.
  private mutating func refill(_ candidates: ((ChannelName) -> Void) -> Void) {
    let size = Self.batchSize
    var kept: [ChannelName] = []
    var cut = false
    // The names kept are those after `after` and, once a cut was made, before `bound`; both
    // plain values with a flag, so that each candidate is compared, not copied in and out of
    // an optional.
    let hasAfter = last != nil
    let after = last ?? Self.placeholder
    var bound = Self.placeholder
    candidates { name in
      if hasAfter && !(after < name) { return }
      if cut && !(name < bound) { return }
      kept.append(name)
      if kept.count == 2 * size {
        kept.sort()
        kept.removeLast(size)
        bound = kept[size - 1]
        cut = true
      }
    }
    kept.sort()
    if kept.count > size {
      kept.removeLast(kept.count - size)
      cut = true
    }
    batch = kept
    position = 0
    finished = !cut
  }
}
