import BadgeCore
import BadgeProtocol
import BadgeSystem

/// What the daemon does while the state cannot be saved, whatever failed (an append, a flush,
/// the deferred `everysec` flush, any step of a compaction): changes are refused with
/// `ERR failed`, reads keep working, a repair is tried once a second, and the log says what
/// failed once, that the first repair failed (if it did), and when saving works again.
final class StorageFailurePolicy {
  private var logger: Logger
  /// Why changes are refused; `nil` while the state can be saved.
  private(set) var failure: SystemError?
  /// Makes the change log whole again (a compaction); set by whoever owns the change log.
  var repair: () throws(SystemError) -> Void = {}
  /// Arranges for `tryRepair()` to be called in a second (the server's repair timer).
  var scheduleRepair: () -> Void = {}
  /// How many failures were reported since saving last worked (the log names the first).
  private(set) var failuresSinceLastSave = 0
  /// How many repairs failed since saving last worked.
  private(set) var failedRepairs = 0

  init(logger: Logger) {
    self.logger = logger
  }

  var isFailing: Bool { failure != nil }

  /// Storage failed: refuse changes until a repair succeeds. `consequence` says what it means
  /// for the changes at hand (for the log).
  func failed(_ error: SystemError, _ consequence: String) {
    failuresSinceLastSave += 1
    guard failure == nil else {
      logger.debug("\(error); still refusing changes.")
      return
    }
    failure = error
    logger.error("\(error); \(consequence) Refusing changes until the state can be saved.")
    scheduleRepair()
  }

  /// Tries to make the change log whole; on success changes are accepted again, else another
  /// try is scheduled.
  func tryRepair() {
    guard failure != nil else { return }
    do {
      try repair()
    } catch {
      failedRepairs += 1
      if failedRepairs == 1 {
        logger.warning("Failed to repair the state folder: \(error); retrying every second.")
      } else {
        logger.debug("Repair failed: \(error); trying again.")
      }
      scheduleRepair()
      return
    }
    failure = nil
    logger.notice("The state can be saved again after \(failedRepairs) failed repair(s); accepting changes.")
    failuresSinceLastSave = 0
    failedRepairs = 0
  }

  /// The reply to a change while saving fails, or `nil` when changes are accepted.
  var refusal: ProtocolError? {
    guard let failure else { return nil }
    return ProtocolError(.failed, "Changes are refused until the state can be saved again: \(failure)")
  }
}
