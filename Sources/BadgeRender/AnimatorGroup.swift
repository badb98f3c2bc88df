import BadgeCore

/// The animators of every channel one watcher shows, in the order channels first arrived: one
/// line of a bar module draws them all, and one timer serves them all.
public struct AnimatorGroup: Sendable {
  public let options: AnimatorOptions
  public private(set) var animators: [BadgeAnimator] = []
  /// Each channel's place in `animators`: an event finds its animator without going through
  /// every channel's.
  private var places: [String: Int] = [:]

  public init(options: AnimatorOptions = AnimatorOptions()) {
    self.options = options
  }

  /// Takes in a snapshot that arrived at `time`; a channel seen for the first time is shown as
  /// it is, without motion.
  public mutating func update(_ snapshot: ChannelSnapshot, at time: Double) {
    if let index = places[snapshot.channel] {
      animators[index].update(snapshot, at: time)
    } else {
      places[snapshot.channel] = animators.count
      animators.append(BadgeAnimator(snapshot, at: time, options: options))
    }
  }

  /// Marks every channel online or offline (the daemon went away or came back), keeping the
  /// last known counts.
  public mutating func setOnline(_ online: Bool, at time: Double) {
    for index in animators.indices where animators[index].snapshot.online != online {
      var snapshot = animators[index].snapshot
      snapshot.online = online
      animators[index].update(snapshot, at: time)
    }
  }

  /// Forgets a channel (it no longer matches what the watcher watches).
  public mutating func remove(channel: String) {
    guard let index = places.removeValue(forKey: channel) else { return }
    animators.remove(at: index)
    for later in index..<animators.count { places[animators[later].snapshot.channel] = later }
  }

  /// Every channel's frame at `time`, with the wall clock then (`wallSeconds`) for the words of
  /// a stale mirror.
  public func frames(at time: Double, wallSeconds: Int? = nil) -> [BadgeFrame] {
    animators.map {
      var frame = $0.frame(at: time)
      frame.wallSeconds = wallSeconds
      return frame
    }
  }

  /// When the words of a stale mirror next change after `wallSeconds` (unix seconds): "offline
  /// 11 min" turning "offline 12 min". `nil` when no channel shown is a stale mirror, so a
  /// watcher with nothing stale is never woken for it.
  public func nextWordsChange(afterWall wallSeconds: Int) -> Int? {
    animators.compactMap { animator -> Int? in
      guard let mirror = animator.snapshot.mirror, mirror.stale, mirror.since > 0 else { return nil }
      return AccessibleText.nextOfflineChange(since: mirror.since, after: wallSeconds)
    }.min()
  }

  /// The earliest wake any channel needs after `time`; `nil` when none moves.
  public func nextWake(after time: Double) -> Double? {
    animators.compactMap { $0.nextWake(after: time) }.min()
  }
}
