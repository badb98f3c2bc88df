import BadgeCore
import BadgeSystem

/// Changes that no client asked for: the bus bridges apply them here, through
/// `CommandExecutor.apply`, the path of every request's change, so persistence, the group
/// commit and watchers cannot tell them apart.
extension Server {
  /// Applies `mutation` to `name` now.
  @discardableResult
  func applyChange(_ mutation: Store.Mutation, to name: ChannelName) throws(CommandExecutor.ChangeRefusal) -> Store.Outcome {
    try executor.apply(mutation, to: name, by: nil, now: loop.now)
  }

  /// Starts or extends the channel's pulse window without changing its count
  /// (`Store.pulse`), and stages the new window's event. Returns the channel when the window
  /// moved.
  @discardableResult
  func pulse(_ name: ChannelName) -> Channel? {
    guard let channel = store.pulse(name, now: loop.now) else { return nil }
    push(channel)
    return channel
  }

  /// Sees every event once the turn's changes are saved (the LauncherEntry export).
  var observer: ((Channel) -> Void)? {
    get { commit.observer }
    set { commit.observer = newValue }
  }
}
