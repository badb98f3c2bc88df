import BadgeCore

/// What one application told the LauncherEntry API so far, merged over its signals.
///
/// Apps send partial updates (Electron sends `count` and `count-visible` in one signal and
/// `progress` in another), so each signal's properties go over the ones before. As in every
/// dock, a count that is not visible reads as 0 but is remembered.
public struct LauncherEntryState: Equatable, Sendable {
  /// The last `count`, clamped to `0 ... Limits.maxCount`.
  public private(set) var count = 0
  /// The last `count-visible`; false until an app says otherwise.
  public private(set) var countVisible = false

  public init() {}

  /// The count the channel shows.
  public var visibleCount: Int { countVisible ? count : 0 }

  /// Merges one signal's properties.
  ///
  /// - Returns: what the channel should do, and the properties that were skipped for their type.
  public mutating func merge(_ properties: [BusProperty]) -> LauncherEntryEffect {
    var effect = LauncherEntryEffect()
    var touchedCount = false
    for property in properties {
      let value = property.value
      switch property.key {
      case "count":
        guard let count = value.clampedCount(limit: Limits.maxCount) else {
          effect.skipped.append("count (\(value.typeName))")
          continue
        }
        self.count = count
        touchedCount = true
      case "count-visible":
        guard case .boolean(let visible) = value else {
          effect.skipped.append("count-visible (\(value.typeName))")
          continue
        }
        countVisible = visible
        touchedCount = true
      case "urgent":
        guard case .boolean(let urgent) = value else {
          effect.skipped.append("urgent (\(value.typeName))")
          continue
        }
        effect.urgent = urgent
      default:
        continue  // progress, progress-visible, quicklist: nothing a badge shows
      }
    }
    if touchedCount { effect.count = visibleCount }
    return effect
  }
}

/// What a merged LauncherEntry signal asks of its channel.
public struct LauncherEntryEffect: Equatable, Sendable {
  /// The count to set, when the signal said anything about the count.
  public var count: Int?
  /// Whether the signal asked for attention (`urgent=true`): the channel pulses.
  public var urgent = false
  /// Properties that were present but of a type the bridge does not take, for a debug line.
  public var skipped: [String] = []

  public init(count: Int? = nil, urgent: Bool = false, skipped: [String] = []) {
    self.count = count
    self.urgent = urgent
    self.skipped = skipped
  }
}

/// Every application's LauncherEntry state, and which bus connection sent it, so that an app
/// leaving the bus can be told apart from another one still there.
public struct LauncherEntryTable: Sendable {
  private var states: [ChannelName: LauncherEntryState] = [:]
  /// The channels each sender (a unique bus name such as `:1.42`) has updated.
  private var channelsBySender: [String: Set<ChannelName>] = [:]

  public init() {}

  /// Merges a signal from `sender` into the state of `channel`.
  public mutating func update(
    _ channel: ChannelName, from sender: String, _ properties: [BusProperty]
  ) -> LauncherEntryEffect {
    channelsBySender[sender, default: []].insert(channel)
    return states[channel, default: LauncherEntryState()].merge(properties)
  }

  /// The state of `channel`, as merged so far.
  public func state(of channel: ChannelName) -> LauncherEntryState? { states[channel] }

  /// Forgets `sender`, which left the bus; returns the channels only it had updated, in name
  /// order. Their merged state is forgotten too: a new process of the app starts afresh.
  public mutating func senderLeft(_ sender: String) -> [ChannelName] {
    guard let channels = channelsBySender.removeValue(forKey: sender) else { return [] }
    let stillSent = channelsBySender.values.reduce(into: Set<ChannelName>()) { $0.formUnion($1) }
    let orphaned = channels.subtracting(stillSent)
    for channel in orphaned { states[channel] = nil }
    return orphaned.sorted()
  }

  /// Forgets every sender (the bus connection was lost, and every sender with it); returns
  /// the channels they had updated, in name order.
  public mutating func allSendersLeft() -> [ChannelName] {
    let channels = states.keys.sorted()
    states.removeAll()
    channelsBySender.removeAll()
    return channels
  }
}
