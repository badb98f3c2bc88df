import BadgeCore
import BadgeCtl
import BadgeProtocol

/// What a `Watcher` shows the daemon's state on: `watch`'s display or `top`'s dashboard.
protocol WatchSurface: AnyObject {
  /// The latest snapshot of every channel shown.
  var channels: [ChannelSnapshot] { get }
  /// Every channel as it was last drawn: what a click acts on, which may be older than
  /// `channels` (events read but not drawn yet, a format that writes at most once a second).
  var drawn: [ChannelSnapshot] { get }
  /// Takes in a snapshot that arrived now (from `WATCH`'s reply or an event).
  func update(_ snapshot: ChannelSnapshot)
  /// Stops showing `channel`.
  func remove(channel: String)
  /// Marks every channel online or offline.
  func setOnline(_ online: Bool)
  /// A line of the reply to `request`, sent with `Watcher.send` (never an event).
  func replied(_ line: ReplyLine, to request: Request)
  /// Tells the user something went wrong that the watcher works around (a limit reached).
  func warn(_ message: String)
  /// The connection ended: replies still owed will not come.
  func connectionClosed()
  /// The loop ended: leave the output tidy.
  func finish()
}

extension WatchSurface {
  /// A surface that draws every state it takes in at once.
  var drawn: [ChannelSnapshot] { channels }
}
