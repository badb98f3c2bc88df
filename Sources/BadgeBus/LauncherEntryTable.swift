import BadgeCore

/// Every application's LauncherEntry state, and which bus connections sent it, so that an app
/// leaving the bus can be told apart from another one still there.
///
/// Bounded: it remembers at most `limit` apps at once, an app being a bus connection (a unique
/// name such as `:1.42`) and a desktop id it sends for. An update that would add one more is
/// refused and leaves nothing behind, and whatever is forgotten (an app that left, a channel
/// the store refused) frees its entry, so one connection that sends for ever new ids, or many
/// connections that send for one, hold no more than the limit allows.
public struct LauncherEntryTable: Sendable {
  /// A channel's merged state, and how many connections send for it.
  private struct Entry: Sendable {
    var state = LauncherEntryState()
    var senders = 0
  }

  private var entries: [ChannelName: Entry] = [:]
  /// The channels each sender has updated.
  private var channelsBySender: [String: Set<ChannelName>] = [:]
  /// The apps remembered: pairs of a sender and a channel it updated.
  public private(set) var appCount = 0

  public init() {}

  /// Merges an update from `sender` into the state of its channel, unless that would take the
  /// table past `limit` apps.
  ///
  /// - Returns: what the channel should do, or `nil` when the update was refused for the limit
  ///   (nothing of it is kept).
  public mutating func update(_ update: LauncherEntryUpdate, from sender: String, limit: Int) -> LauncherEntryEffect? {
    let channel = update.channel
    if channelsBySender[sender]?.contains(channel) != true {
      guard appCount < limit else { return nil }
      channelsBySender[sender, default: []].insert(channel)
      entries[channel, default: Entry()].senders += 1
      appCount += 1
    }
    return entries[channel]!.state.merge(update.properties)
  }

  /// The state of `channel`, as merged so far.
  public func state(of channel: ChannelName) -> LauncherEntryState? { entries[channel]?.state }

  /// Forgets that `sender` sent for `channel` (the store refused the channel); its state goes
  /// too once no other connection sends for it.
  public mutating func forget(_ channel: ChannelName, from sender: String) {
    guard channelsBySender[sender]?.remove(channel) != nil else { return }
    if channelsBySender[sender]!.isEmpty { channelsBySender[sender] = nil }
    release(channel)
  }

  /// Forgets `sender`, which left the bus; returns the channels only it had updated, in name
  /// order. Their merged state is forgotten too: a new process of the app starts afresh.
  public mutating func senderLeft(_ sender: String) -> [ChannelName] {
    guard let channels = channelsBySender.removeValue(forKey: sender) else { return [] }
    return channels.filter { release($0) }.sorted()
  }

  /// Forgets every sender (the bus connection was lost, and every sender with it); returns
  /// the channels they had updated, in name order.
  public mutating func allSendersLeft() -> [ChannelName] {
    let channels = entries.keys.sorted()
    entries.removeAll()
    channelsBySender.removeAll()
    appCount = 0
    return channels
  }

  /// One sender less for `channel`; returns whether that was the last, and so its state went.
  @discardableResult
  private mutating func release(_ channel: ChannelName) -> Bool {
    appCount -= 1
    entries[channel]!.senders -= 1
    guard entries[channel]!.senders == 0 else { return false }
    entries[channel] = nil
    return true
  }
}
