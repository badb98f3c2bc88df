import BadgeCore
import BadgeProtocol

/// What badged-web knows of the daemon now: every channel's latest state, do-not-disturb, and
/// the highest seq they reflect. New clients get it as their `snapshot` (and `GET
/// /api/channels` as its body); each line the feed receives updates it and becomes the event
/// every client reads (`feed(_:into:)`).
public struct WebState: Sendable {
  /// The channels by name, as their latest `STATE` or `EVENT` line gave them.
  public private(set) var channels: [String: ChannelSnapshot] = [:]
  public private(set) var dnd = DNDSnapshot(isOn: false, leftMs: 0)
  /// The highest seq of a change reflected: the snapshot's `id`.
  public private(set) var seq: UInt64 = 0

  public init() {}

  /// What one line of the feed changed.
  public enum Update: Sendable, Equatable {
    /// A channel's seq moved: a `change` event with `id: <seq>`.
    case change(seq: UInt64, channel: ChannelName?, bytes: [UInt8])
    /// A channel's state changed without a new seq (a pulse's end, `PULSE`, a reload, its dnd
    /// field): a `state` event without an id.
    case state(channel: ChannelName?, bytes: [UInt8])
    /// Do-not-disturb: a `dnd` event without an id.
    case dnd(bytes: [UInt8])
    /// Nothing for the clients (`OK`, an error, another kind of line).
    case none
  }

  /// Replaces everything with a snapshot (the reply to the feed's `WATCH`): `seq` becomes the
  /// highest of the channels' (or `seq` when given, for a daemon that names it).
  public mutating func replace(dnd: DNDSnapshot, channels: [ChannelSnapshot], seq: UInt64? = nil) {
    self.dnd = dnd
    self.channels = Dictionary(channels.map { ($0.channel, $0) }, uniquingKeysWith: { _, later in later })
    self.seq = seq ?? channels.map(\.seq).max() ?? 0
  }

  /// Replaces everything with a snapshot the daemon sent after `OK watching reset` (it
  /// restarted, or the feed was away longer than it keeps changes), and starts a new epoch of
  /// `ring` with a `reset` event and the new snapshot, so the clients reading along redraw.
  public mutating func reset(dnd: DNDSnapshot, channels: [ChannelSnapshot], ring: inout EventRing) {
    replace(dnd: dnd, channels: channels)
    ring.rebase(to: seq, bytes: resetEvents())
  }

  /// A `change` event of `snapshot`, `id: <seq>`: what a client whose changes are replayed from
  /// badged (`WATCH since=`) gets for each `STATE` line of the replay.
  public static func changeEvent(_ snapshot: ChannelSnapshot) -> [UInt8] {
    ServerSentEvent.event(ServerSentEvent.Name.change, id: snapshot.seq, data: WebJSON.channel(snapshot).text)
  }

  /// Takes in one line of the feed: a channel's state, or do-not-disturb's.
  public mutating func apply(_ line: ReplyLine) -> Update {
    switch line {
    case .state(let snapshot), .event(let snapshot): return apply(snapshot)
    case .dnd(let dnd, _): return apply(dnd)
    default: return .none
    }
  }

  /// Takes in a channel's state: a change when its seq is above every seq seen (a merged event
  /// carries the latest), otherwise a state event.
  public mutating func apply(_ snapshot: ChannelSnapshot) -> Update {
    channels[snapshot.channel] = snapshot
    let name = ChannelName(snapshot.channel)
    let data = WebJSON.channel(snapshot).text
    if snapshot.seq > seq {
      seq = snapshot.seq
      return .change(seq: snapshot.seq, channel: name, bytes: WebState.changeEvent(snapshot))
    }
    return .state(channel: name, bytes: ServerSentEvent.event(ServerSentEvent.Name.state, data: data))
  }

  /// Takes in do-not-disturb's state.
  public mutating func apply(_ dnd: DNDSnapshot) -> Update {
    self.dnd = dnd
    return .dnd(bytes: ServerSentEvent.event(ServerSentEvent.Name.dnd, data: WebJSON.dnd(dnd).text))
  }

  /// Takes in `line` and appends the event it makes to `ring`. A change whose seq the ring
  /// refuses (not above its latest) goes in as a state event, so nothing is lost.
  public mutating func feed(_ line: ReplyLine, into ring: inout EventRing) {
    switch apply(line) {
    case .change(let seq, let channel, let bytes):
      if !ring.appendChange(seq: seq, channel: channel, bytes: bytes),
        let snapshot = channel.flatMap({ channels[$0.description] })
      {
        ring.appendEvent(
          channel: channel,
          bytes: ServerSentEvent.event(ServerSentEvent.Name.state, data: WebJSON.channel(snapshot).text))
      }
    case .state(let channel, let bytes): ring.appendEvent(channel: channel, bytes: bytes)
    case .dnd(let bytes): ring.appendEvent(channel: nil, bytes: bytes)
    case .none: break
    }
  }

  /// The channel called `name`, if the daemon has sent it.
  public func channel(named name: String) -> ChannelSnapshot? { channels[name] }

  /// The channels `patterns` match (all when empty), by name.
  public func channels(matching patterns: [ChannelPattern] = []) -> [ChannelSnapshot] {
    channels.values
      .filter { snapshot in
        patterns.isEmpty
          || ChannelName(snapshot.channel).map { name in patterns.contains { $0.matches(name) } } ?? false
      }
      .sorted { $0.channel < $1.channel }
  }

  /// `{"seq":…,"dnd":{…},"channels":[…]}` of the channels `patterns` match.
  public func snapshotJSON(patterns: [ChannelPattern] = []) -> String {
    WebJSON.snapshot(seq: seq, dnd: dnd, channels: channels(matching: patterns))
  }

  /// The `snapshot` event, `id: <seq>`, of the channels `patterns` match.
  public func snapshotEvent(patterns: [ChannelPattern] = []) -> [UInt8] {
    ServerSentEvent.event(ServerSentEvent.Name.snapshot, id: seq, data: snapshotJSON(patterns: patterns))
  }

  /// A `reset` event and the snapshot after it: what a client that fell behind, or whose id
  /// badged no longer knows, gets; and what a rebase of the ring holds.
  public func resetEvents(reason: String = "gap", patterns: [ChannelPattern] = []) -> [UInt8] {
    ServerSentEvent.event(ServerSentEvent.Name.reset, data: WebJSON.reset(reason: reason))
      + snapshotEvent(patterns: patterns)
  }
}
