import BadgeCore

/// Counts desktop notifications per app from what a bus monitor sees: `Notify` calls to the
/// notification daemon, its answers (the notification's id), and its `NotificationClosed` and
/// `ActionInvoked` signals.
///
/// A notification counts once: a replacement (`replaces_id` ≠ 0) does not count again. One the
/// user dismissed (`NotificationClosed` reason 2) or acted on (`ActionInvoked`) takes one off;
/// one that expired or that its app closed stays counted until the channel is cleared.
///
/// Only the notification daemon that showed a notification can close it: each id is kept with
/// the connection that answered with it, and a signal from any other connection takes nothing
/// off (and leaves the notification to its daemon). The monitor's rules ask the bus for the
/// signals of the name's current owner only; this is the same rule, kept where it is tested.
/// When the name changes hands, what the old daemon showed is forgotten (`reset`).
public struct NotificationCounter: Sendable {
  /// `Notify` calls waiting for their answer, by caller and serial.
  private var pending: [Call: ChannelName] = [:]
  /// Shown notifications, by id: the channel, and the connection that showed it.
  private var shown: [UInt32: (channel: ChannelName, server: String)] = [:]

  /// How many calls and notifications are remembered; past this the oldest knowledge is
  /// dropped (a caller that never gets answers cannot grow the daemon).
  public static let memoryLimit = 4096

  private struct Call: Hashable, Sendable {
    var caller: String
    var serial: UInt64
  }

  /// The `Notify` reason 2 of `NotificationClosed`: dismissed by the user.
  public static let dismissedByUser: UInt64 = 2

  public init() {}

  /// The channel of a notification: `notify:` and the `desktop-entry` hint, else the app name,
  /// mapped by `AppChannel`'s rule; `nil` when both are empty.
  public static func channel(appName: String, desktopEntry: String?) -> ChannelName? {
    let id = AppChannel.desktopID(fromAppURI: desktopEntry ?? "")
    return AppChannel.channel(prefix: AppChannel.notificationPrefix, id: id.isEmpty ? appName : id)
  }

  /// A `Notify` call (`susssasa{sv}i`) from `caller` with `serial`: returns the channel to
  /// count one more on, or `nil` (a replacement, or no app to count for).
  public mutating func notify(caller: String, serial: UInt64, arguments: [BusValue]) -> ChannelName? {
    guard arguments.count == 8, case .string(let appName) = arguments[0], case .unsigned(let replaces) = arguments[1]
    else { return nil }
    var desktopEntry: String?
    if case .dictionary(let hints) = arguments[6],
      let hint = hints.first(where: { $0.key == "desktop-entry" }), case .string(let entry) = hint.value
    {
      desktopEntry = entry
    }
    guard let channel = Self.channel(appName: appName, desktopEntry: desktopEntry) else { return nil }
    if pending.count >= Self.memoryLimit { pending.removeAll() }
    pending[Call(caller: caller, serial: serial)] = channel
    return replaces == 0 ? channel : nil
  }

  /// The notification daemon's answer (from `server`, its unique name) to the call
  /// `replySerial` of `caller`: the id it gave.
  public mutating func answered(server: String, caller: String, replySerial: UInt64, arguments: [BusValue]) {
    guard let channel = pending.removeValue(forKey: Call(caller: caller, serial: replySerial)),
      arguments.count == 1, case .unsigned(let id) = arguments[0], let id32 = UInt32(exactly: id)
    else { return }
    if shown.count >= Self.memoryLimit { shown.removeAll() }
    shown[id32] = (channel, server)
  }

  /// `NotificationClosed` (`uu`) from `sender`: the channel to take one off when the user
  /// dismissed it.
  public mutating func closed(sender: String, arguments: [BusValue]) -> ChannelName? {
    guard arguments.count == 2, case .unsigned(let id) = arguments[0], case .unsigned(let reason) = arguments[1],
      let channel = done(id, by: sender)
    else { return nil }
    return reason == Self.dismissedByUser ? channel : nil
  }

  /// `ActionInvoked` (`us`) from `sender`: the channel to take one off; the notification is done
  /// with, so a `NotificationClosed` after it takes nothing more.
  public mutating func actionInvoked(sender: String, arguments: [BusValue]) -> ChannelName? {
    guard arguments.count == 2, case .unsigned(let id) = arguments[0] else { return nil }
    return done(id, by: sender)
  }

  /// Forgets the notification `id` when `sender` showed it, and returns its channel; `nil`
  /// (keeping it) when no such notification is shown or another connection showed it.
  private mutating func done(_ id: UInt64, by sender: String) -> ChannelName? {
    guard let id32 = UInt32(exactly: id), let notification = shown[id32], notification.server == sender else {
      return nil
    }
    shown[id32] = nil
    return notification.channel
  }

  /// Forgets everything: the monitor lost the bus, or the notification daemon's name changed
  /// hands (the calls the old daemon was to answer and the notifications it showed are gone
  /// with it).
  public mutating func reset() {
    pending.removeAll()
    shown.removeAll()
  }

  /// How many calls and notifications are remembered (for tests of the bound).
  public var remembered: (calls: Int, notifications: Int) { (pending.count, shown.count) }
}
