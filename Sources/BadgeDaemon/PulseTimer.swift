import BadgeCore
import BadgeSystem

/// One timer for the earliest end of a pulse window, however many channels pulse. When it
/// fires, the windows due end, their events are staged for the turn's commit, and their
/// `on_pulse_end` hooks are asked for.
final class PulseTimer {
  private let store: Store
  private let commit: GroupCommit
  private var timer: TimerSource?

  init(loop: EventLoop, store: Store, commit: GroupCommit) throws(SystemError) {
    self.store = store
    self.commit = commit
    timer = try loop.addTimer { [unowned self, unowned loop] in fired(now: loop.now) }
  }

  /// Arms the timer for the store's next deadline (end of every turn).
  func arm() {
    timer?.arm(at: store.nextPulseDeadline)
  }

  private func fired(now: UInt64) {
    store.expirePulses(now: now) { channel in
      commit.stage(channel)
      commit.hooks?.pulseEnded(channel)
    }
  }
}
