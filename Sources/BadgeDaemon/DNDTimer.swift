import BadgeCore
import BadgeSystem

/// The timer at the end of a timed do-not-disturb. When it fires, do-not-disturb ends and its
/// event, then its channels' events, are staged for the turn's commit, so no client needs a
/// timer. Like a pulse window's end it is derived from time: nothing is saved (a restart reads
/// the end from the state folder).
final class DNDTimer {
  private let store: Store
  private let commit: GroupCommit
  private let logger: Logger
  private var timer: TimerSource?

  init(loop: EventLoop, store: Store, commit: GroupCommit, logger: Logger) throws(SystemError) {
    self.store = store
    self.commit = commit
    self.logger = logger
    timer = try loop.addTimer { [unowned self, unowned loop] in fired(now: loop.now) }
  }

  /// Arms the timer for the store's do-not-disturb end (end of every turn).
  func arm() {
    timer?.arm(at: store.nextDNDDeadline)
  }

  private func fired(now: UInt64) {
    var silenced: [Channel] = []
    if store.expireDND(now: now, changed: { silenced.append($0) }) {
      commit.stageDND(silenced: silenced)
      logger.info("Do-not-disturb ended.")
    }
  }
}
