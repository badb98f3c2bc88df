import BadgeBus
import BadgeCore

/// An item's menu as com.canonical.dbusmenu serves it: one entry per channel of its group, a
/// separator, "Clear all" and the "Do not disturb" toggle.
///
/// Every layout is a new revision whose entries get ids never used before, and the actions of
/// the last `keptRevisions` revisions are kept: a click names an id of the layout the host
/// showed, which may be older than the latest, and acts on exactly what that layout showed (its
/// totals), so an item that arrived since is not cleared with it.
public struct TrayMenu: Sendable {
  /// One entry of a layout, under the root (id 0).
  public struct Entry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
      case standard
      case separator
      /// A checkmark entry (`toggle-type` checkmark, `toggle-state` 1 or 0).
      case toggle(on: Bool)
    }

    public var id: Int32
    public var label: String
    public var kind: Kind
    public var enabled: Bool

    public init(id: Int32, label: String, kind: Kind, enabled: Bool) {
      self.id = id
      self.label = label
      self.kind = kind
      self.enabled = enabled
    }
  }

  /// A channel to clear and the running total to clear it up to: what the layout showed (`nil`
  /// from a daemon that sends no total: every item).
  public struct ClearTarget: Sendable, Equatable {
    public var channel: ChannelName
    public var upTo: Int?

    public init(channel: ChannelName, upTo: Int?) {
      self.channel = channel
      self.upTo = upTo
    }
  }

  /// What clicking an entry does; the item's own clicks and scroll give them too
  /// (`TrayGroup.activation`, `clearAction`, `scrollAction`).
  public enum Action: Sendable, Equatable {
    /// Opens the app whose channel the entry shows, and clears the channel up to the total
    /// shown, as `badgectl open --upto` does.
    case open(desktopID: String, channel: ChannelName, total: Int?)
    /// Clears each channel up to the total the layout showed (`CLEAR <channel> upto=<total>`).
    case clear([ClearTarget])
    /// Turns do-not-disturb on or off (`DND on`, `DND off`).
    case dnd(on: Bool)
    /// Adds to a channel's count (`INCR`), or takes away from it (`DECR`) when `by` is below 0.
    case step(channel: ChannelName, by: Int)
  }

  /// How many revisions' clicks are still acted on: a host shows the latest layout within a
  /// round trip, and a menu left open while counts change falls at most a few behind.
  public static let keptRevisions = 8

  /// The latest layout's revision (0 before the first).
  public private(set) var revision: UInt32 = 0
  /// The id the next entry gets; 0 is the root's. It wraps to 1 after `Int32.max`, some
  /// hundreds of millions of layouts later, long after every kept revision has gone.
  private var nextID: Int32 = 1
  /// The kept revisions' entries and what each id acts on, the oldest first: a host may ask
  /// for an entry's properties, or send its click, after a newer layout was made.
  private var revisions: [(entries: [Entry], actions: [Int32: Action])] = []

  public init() {}

  /// A new revision of the layout for the group's channels and do-not-disturb's state, its
  /// entries with fresh ids (above every earlier one).
  public mutating func layout(for group: TrayGroup, dnd: Bool) -> [Entry] {
    var entries: [Entry] = []
    var actions: [Int32: Action] = [:]
    func add(_ label: String, _ kind: Entry.Kind, enabled: Bool = true, _ action: Action? = nil) {
      let id = nextID
      nextID = nextID == .max ? 1 : nextID + 1
      entries.append(Entry(id: id, label: label, kind: kind, enabled: enabled))
      actions[id] = action
    }
    for channel in group.channels {
      guard let name = ChannelName(channel.channel) else { continue }
      let target = ClearTarget(channel: name, upTo: channel.total)
      if let id = AppChannel.desktopID(of: name) {
        add(label(of: channel, in: group), .standard, .open(desktopID: id, channel: name, total: channel.total))
      } else {
        add(label(of: channel, in: group), .standard, enabled: channel.count > 0, .clear([target]))
      }
    }
    add("", .separator, enabled: true)
    let clearAll = group.clearAction
    add("Clear all", .standard, enabled: clearAll != nil, clearAll)
    add("Do not disturb", .toggle(on: dnd), .dnd(on: !dnd))
    revision &+= 1
    revisions.append((entries, actions))
    if revisions.count > Self.keptRevisions { revisions.removeFirst() }
    return entries
  }

  /// The action of a clicked id while its revision is among the last `keptRevisions`; `nil`
  /// otherwise, and for the root and separators.
  public func action(for id: Int32) -> Action? {
    for revision in revisions.reversed() {
      if let action = revision.actions[id] { return action }
    }
    return nil
  }

  /// The entry `id` while its revision is among the last `keptRevisions`, the latest first.
  public func entry(for id: Int32) -> Entry? {
    for revision in revisions.reversed() {
      if let entry = revision.entries.first(where: { $0.id == id }) { return entry }
    }
    return nil
  }

  /// The entries of the latest layout (none before the first).
  public var latestEntries: [Entry] { revisions.last?.entries ?? [] }

  /// A channel's entry: "mail  3", "alerts  •", "ci  99+", then " (laptop)" for a channel
  /// mirrored from another machine and " (muted)" for a muted one.
  private func label(of channel: ChannelSnapshot, in group: TrayGroup) -> String {
    var text = channel.channel + "  " + group.countText(channel)
    if let mirror = channel.mirror { text += " (\(mirror.owner))" }
    if channel.muted { text += " (muted)" }
    return text
  }
}
