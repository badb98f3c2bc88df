import BadgeCore

/// A watcher's view of the daemon's push stream: the snapshot `WATCH` answers with, then the
/// events, each channel's sequence number checked against what the stream holds for it.
///
/// The rule (docs/PROTOCOL.md, "Clients"): within one connection a channel's `seq` never goes
/// down. An event may repeat the `seq` the stream holds for its channel (the end of a pulse
/// window, `PULSE`, do-not-disturb, a reload, a slow reader's merged events, a channel both in
/// a long snapshot and in the events after it) or raise it; an event with `seq=0` is a channel
/// the daemon forgot, which is let go. An event below what the stream holds cannot follow it:
/// that is a gap (lines lost or out of order), and the stream heals it by asking for a new
/// snapshot on the same connection (`UNWATCH`, then `WATCH` with its patterns): events in
/// between are dropped, and the new snapshot reports every channel as it is after it.
///
/// It holds at most `limit` channels' numbers; a channel past it is passed on unchecked, so a
/// server that names channels without end cannot make it grow.
public struct WatchStream: Sendable {
  /// Where the stream is.
  public enum Phase: Equatable, Sendable {
    /// No `WATCH` asked for (or the daemon refused it).
    case idle
    /// `WATCH` sent: its reply, the snapshot, is awaited or coming in.
    case snapshot
    /// The reply ended (`OK watching`, with or without what follows it): events follow.
    case watching
    /// A gap was found: `UNWATCH` was sent and its reply is awaited; events are dropped.
    case healing
  }

  /// What the stream makes of a line.
  public enum Verdict: Equatable, Sendable {
    /// Hand the channel's state on: a snapshot line, or an event that follows what is held.
    case channel(ChannelSnapshot)
    /// An event below what the stream holds: ask for a new snapshot.
    case gap(channel: String, seq: UInt64, held: UInt64)
    /// Nothing to hand on (an event while healing).
    case dropped
  }

  public static let defaultLimit = 10_000

  public let limit: Int
  /// The patterns asked for; `nil` until `WATCH` is asked for.
  public private(set) var patterns: [ChannelPattern]?
  /// The sequence number each `WATCH` of the stream resumes after (`since=`); `nil`: a
  /// snapshot. A gap is healed with a snapshot whatever it is.
  public private(set) var since: UInt64?
  public private(set) var phase: Phase = .idle
  /// The `seq` held for each channel reported on this connection.
  private var held: [String: UInt64] = [:]

  public init(limit: Int = WatchStream.defaultLimit) {
    self.limit = limit
  }

  /// How many channels' numbers are held.
  public var heldCount: Int { held.count }

  /// The `seq` held for `channel`, if any.
  public func seq(of channel: String) -> UInt64? { held[channel] }

  /// `WATCH` with these patterns is to be asked for (now, and on every new connection), after
  /// `since` when it is given.
  public mutating func watch(_ patterns: [ChannelPattern], since: UInt64? = nil) {
    self.patterns = patterns
    self.since = since
  }

  /// Nothing is to be watched any more (`UNWATCH`): what was held goes.
  public mutating func unwatch() {
    patterns = nil
    since = nil
    phase = .idle
    held = [:]
  }

  /// The next `WATCH` resumes after `seq` (`nil`: asks for a snapshot).
  public mutating func resume(after seq: UInt64?) {
    since = seq
  }

  /// `WATCH` was sent: its reply is the snapshot. What was held belongs to an earlier snapshot.
  mutating func snapshotRequested() {
    phase = .snapshot
    held = [:]
  }

  /// A line of the snapshot (a channel's `STATE` line in `WATCH`'s reply).
  mutating func snapshotLine(_ snapshot: ChannelSnapshot) -> Verdict {
    hold(snapshot)
    return .channel(snapshot)
  }

  /// `WATCH`'s reply ended: `OK watching`, or an error (then nothing is watched).
  mutating func snapshotEnded(ok: Bool) {
    phase = ok && patterns != nil ? .watching : .idle  // an `UNWATCH` may follow it already
    if !ok { patterns = nil }
  }

  /// An `EVENT` line for a channel, checked by the rule.
  mutating func event(_ snapshot: ChannelSnapshot) -> Verdict {
    if phase == .healing { return .dropped }
    // One lookup for the check and the update: this runs for every event a watcher reads.
    guard snapshot.seq != 0, let index = held.index(forKey: snapshot.channel) else {
      hold(snapshot)
      return .channel(snapshot)
    }
    let seq = held.values[index]
    if snapshot.seq < seq, patterns != nil {
      phase = .healing
      return .gap(channel: snapshot.channel, seq: snapshot.seq, held: seq)
    }
    held.values[index] = snapshot.seq
    return .channel(snapshot)
  }

  /// `UNWATCH` (sent to heal a gap) was answered: the new `WATCH`'s snapshot comes next.
  mutating func unwatched() {
    if phase == .healing { snapshotRequested() }
  }

  /// The connection ended: a new one starts with a new snapshot.
  mutating func connectionEnded() {
    phase = .idle
    held = [:]
  }

  private mutating func hold(_ snapshot: ChannelSnapshot) {
    if snapshot.seq == 0 {
      held[snapshot.channel] = nil
    } else if held.count < limit || held[snapshot.channel] != nil {
      held[snapshot.channel] = snapshot.seq
    }
  }
}
